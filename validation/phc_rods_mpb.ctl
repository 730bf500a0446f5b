; MPB reference for GoLightly's Bloch-periodic band test (issue 51, validation:
; "2D photonic crystal bands against MPB"): the square lattice of dielectric rods of
; Joannopoulos et al., Photonic Crystals: Molding the Flow of Light, 2nd ed. (2008), ch. 5
; (eps 8.9, radius 0.2 a, in air), TM polarization (E along the rods: GoLightly's TMz),
; the first 6 bands at Gamma (0,0), X (1/2,0) and M (1/2,1/2) (k in units of 2 pi / a).
; Frequencies are in c/a; with a = 1 um, f c/a is the vacuum wavelength 1/f um.
;
; Run (Debian mpb 1.11; res sets the grid, pixels per a):
;   mpb res=32 validation/phc_rods_mpb.ctl | grep '^csv:,' | cut -d, -f2-
; validation/README.md ("2D photonic crystal bands") gives the command that writes
; validation/phc_rods_mpb_reference.csv (resolutions 32 and 128).
(define-param res 32)
(define-param nbands 6)
(set! num-bands nbands)
(set! geometry-lattice (make lattice (size 1 1 no-size)))
(set! geometry (list (make cylinder (center 0 0 0) (radius 0.2) (height infinity)
                       (material (make dielectric (epsilon 8.9))))))
(set! resolution res)
(set! tolerance 1e-10)
(set! output-epsilon (lambda () #t))  ; no epsilon.h5 in the working folder
(define k-named (list (cons "Gamma" (vector3 0 0 0))
                      (cons "X" (vector3 0.5 0 0))
                      (cons "M" (vector3 0.5 0.5 0))))
(define (print-csv name k)
  (set! k-points (list k))
  (run-tm)
  (map (lambda (b f)
         (print "csv:," res "," name "," (vector3-x k) "," (vector3-y k) "," b "," f "\n"))
       (arith-sequence 1 1 num-bands) freqs))
(print "csv:,resolution,k_point,kx_2pi_per_a,ky_2pi_per_a,band,frequency_c_per_a\n")
(map (lambda (p) (print-csv (car p) (cdr p))) k-named)
