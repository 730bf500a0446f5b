# Sourced by the MPI test scripts (mpi_run_test.sh, mpi_optimize_test.sh) after they set
# $mpiexec: fills the array mpi_flags with what Open MPI needs on a CI machine and exports its
# MCA settings. Open MPI as root (CI) needs --allow-run-as-root; more ranks than cores
# --oversubscribe; containers often forbid the single-copy (CMA) transport, so it is
# switched off. Other MPI libraries get no flags.
mpi_flags=()
mpi_version=$("$mpiexec" --version 2>&1 || true)
if [[ "$mpi_version" == *"Open MPI"* || "$mpi_version" == *"OpenRTE"* ]]; then
  mpi_flags+=(--oversubscribe)
  [ "$(id -u)" = 0 ] && mpi_flags+=(--allow-run-as-root)
  export OMPI_MCA_rmaps_base_oversubscribe=1
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  export OMPI_MCA_btl=self,vader   # one host: shared memory only, no network probing
  export OMPI_MCA_pml=ob1
  export OMPI_MCA_mpi_yield_when_idle=1  # oversubscribed ranks give up their core while waiting
  mpi_flags+=(-x GOLIGHTLY_MPI_FAIL_RANK)  # the failure tests' rank, to every rank
fi
