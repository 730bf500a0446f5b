; MPB reference for the 2D cross-section mode solver (issue 50, validation: "Si strip
; 500x220 nm in SiO2 at 1.55 um: TE0/TM0 n_eff within 2e-3 of MPB (Debian mpb; keep the
; .ctl in validation/)"): the same computation as validation/strip_mode_mpb.py (which runs
; MPB through python3-meep's meep.mpb and writes validation/strip_mode_mpb_reference.csv),
; for Debian's mpb program. n_eff of the two highest-index modes (TE0, TM0) of a 500 x 220
; nm Si strip (n 3.476) in oxide (n 1.444) at lambda = 1.55 um: find-k along x at the fixed
; frequency 1/1.55 c/um (lengths in um), on the C++ test's window (2.0 x 1.6 um, periodic
; here; the TE0 field has decayed by e^-6 at its walls). MPB: Johnson & Joannopoulos, Opt.
; Express 8, 173 (2001).
;
; Run (Debian mpb 1.11; res: pixels per um):
;   mpb res=32 validation/strip_mode_mpb.ctl | grep '^csv:,' | cut -d, -f2-
; prints resolution_per_um,band,n_eff. mpb rounds the 1.6 um axis to 52 points at res 32
; where meep.mpb takes 54, so the coarse rows differ from strip_mode_mpb_reference.csv;
; at res 128 they agree within 7e-5 (validation/README.md, "Validation against MPB").
(define-param res 32)
(define-param wavelength 1.55)
(set! num-bands 2)
(set! geometry-lattice (make lattice (size no-size 2.0 1.6)))
(set! geometry (list (make block (center 0 0 0) (size infinity 0.5 0.22)
                       (material (make dielectric (index 3.476))))))
(set! default-material (make dielectric (index 1.444)))
(set! resolution res)
(set! tolerance 1e-10)
(set! output-epsilon (lambda () #t))  ; no epsilon.h5 in the working folder
(define f (/ 1 wavelength))
(define ks (find-k NO-PARITY f 1 2 (vector3 1 0 0) 1e-9 (* 2.4 f) (* 1.0 f) (* 3.476 f)))
(print "csv:,resolution_per_um,band,n_eff\n")
(map (lambda (b k) (print "csv:," res "," b "," (/ k f) "\n")) (list 1 2) ks)
