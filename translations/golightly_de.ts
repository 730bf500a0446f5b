<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>NumberSpinBox</name>
    <message>
        <source>the value %1 is outside the field&apos;s range (%2 to %3)</source>
        <translation>der Wert %1 liegt außerhalb des Bereichs des Feldes (%2 bis %3)</translation>
    </message>
    <message>
        <source>= %1%2</source>
        <translation>= %1%2</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The project &quot;%1&quot; has unsaved changes. Save them?</source>
        <translation>Das Projekt „%1“ hat ungespeicherte Änderungen. Speichern?</translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation>Ungespeicherte Arbeit wiederherstellen</translation>
    </message>
    <message>
        <source>The fields diverged.</source>
        <translation>Die Felder sind divergiert.</translation>
    </message>
    <message>
        <source>Run stopped after %1 steps; partial results written.</source>
        <translation>Lauf nach %1 Schritten angehalten; Teilergebnisse geschrieben.</translation>
    </message>
    <message>
        <source>Run finished (%1) after %2 steps, %3 Mcells/s.</source>
        <translation>Lauf beendet (%1) nach %2 Schritten, %3 MZellen/s.</translation>
    </message>
    <message>
        <source>Out of memory: %1</source>
        <translation>Speicher erschöpft: %1</translation>
    </message>
    <message>
        <source>The project cannot run: %1</source>
        <translation>Das Projekt kann nicht laufen: %1</translation>
    </message>
    <message>
        <source>Out of host memory.</source>
        <translation>Hauptspeicher erschöpft.</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Der Lauf ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Re eps</source>
        <translation>Re eps</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>Im eps</source>
        <translation>Im eps</translation>
    </message>
    <message>
        <source>n (data)</source>
        <translation>n (Daten)</translation>
    </message>
    <message>
        <source>Re eps (data)</source>
        <translation>Re eps (Daten)</translation>
    </message>
    <message>
        <source>k (data)</source>
        <translation>k (Daten)</translation>
    </message>
    <message>
        <source>Im eps (data)</source>
        <translation>Im eps (Daten)</translation>
    </message>
    <message>
        <source>Wavelength (µm)</source>
        <translation>Wellenlänge (µm)</translation>
    </message>
    <message>
        <source>n, k</source>
        <translation>n, k</translation>
    </message>
    <message>
        <source>eps</source>
        <translation>eps</translation>
    </message>
    <message>
        <source>Add material from library</source>
        <translation>Material aus der Bibliothek hinzufügen</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>line 1: not an S-parameter table (expected wavelength_um,frequency_thz,S11_re,S11_im,...)</source>
        <translation>Zeile 1: keine S-Parameter-Tabelle (erwartet: wavelength_um,frequency_thz,S11_re,S11_im,...)</translation>
    </message>
    <message>
        <source>line 1: %1 S columns is not a square matrix</source>
        <translation>Zeile 1: %1 S-Spalten ergeben keine quadratische Matrix</translation>
    </message>
    <message>
        <source>line 1: column %1 should be %2_re</source>
        <translation>Zeile 1: Spalte %1 sollte %2_re sein</translation>
    </message>
    <message>
        <source>line %1: %2 values, the header has %3</source>
        <translation>Zeile %1: %2 Werte, die Kopfzeile hat %3</translation>
    </message>
    <message>
        <source>line %1, column %2: not a number</source>
        <translation>Zeile %1, Spalte %2: keine Zahl</translation>
    </message>
    <message>
        <source>no rows</source>
        <translation>keine Zeilen</translation>
    </message>
    <message>
        <source>the PML (%1)</source>
        <translation>der PML (%1)</translation>
    </message>
    <message>
        <source>material &apos;%1&apos;</source>
        <translation>dem Material „%1“</translation>
    </message>
    <message>
        <source>material &apos;%1&apos; (layer &apos;%2&apos;)</source>
        <translation>dem Material „%1“ (Ebene „%2“)</translation>
    </message>
    <message>
        <source>the background (%1)</source>
        <translation>dem Hintergrund (%1)</translation>
    </message>
    <message>
        <source>an unknown region</source>
        <translation>einem unbekannten Bereich</translation>
    </message>
    <message>
        <source>a dispersive pole there is not passive (damping gamma &lt; 0 or omega_p² &lt; 0): it amplifies the fields instead of absorbing them. Use a material fit with passive poles.</source>
        <translation>Ein dispersiver Pol dort ist nicht passiv (Dämpfung gamma &lt; 0 oder omega_p² &lt; 0): Er verstärkt die Felder, statt sie zu absorbieren. Verwenden Sie eine Materialanpassung mit passiven Polen.</translation>
    </message>
    <message>
        <source>the time step is too large for a medium there (epsilon_inf below the dimension times the Courant number squared, or a pole too fast for the time step). Lower the Courant number (Run setup) or the cell size.</source>
        <translation>Der Zeitschritt ist für ein Medium dort zu groß (epsilon_inf unter der Dimension mal dem Quadrat der Courant-Zahl, oder ein Pol zu schnell für den Zeitschritt). Verringern Sie die Courant-Zahl (Simulation) oder die Zellgröße.</translation>
    </message>
    <message>
        <source>a dispersive material reaches into the PML, which is not designed for dispersive media. End the material at the PML.</source>
        <translation>Ein dispersives Material reicht in die PML hinein, die nicht für dispersive Medien ausgelegt ist. Lassen Sie das Material an der PML enden.</translation>
    </message>
    <message>
        <source>no unstable material, Courant number or dispersive material in the PML was found there. Try a smaller Courant number or cell size.</source>
        <translation>Dort wurde weder ein instabiles Material noch eine zu große Courant-Zahl noch ein dispersives Material in der PML gefunden. Versuchen Sie eine kleinere Courant-Zahl oder Zellgröße.</translation>
    </message>
    <message>
        <source>The fields diverged in the %1 run at step %2 (%3 fs), starting in cell (%4, %5) near x = %6 µm, y = %7 µm (%8), in %9. Likely cause: %10</source>
        <translation>Die Felder sind im %1-Lauf bei Schritt %2 (%3 fs) divergiert, beginnend in Zelle (%4, %5) nahe x = %6 µm, y = %7 µm (%8), in %9. Wahrscheinliche Ursache: %10</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>Alle speichern</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Ja</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>Ja für &amp;alle</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Nein</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>N&amp;ein für alle</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>Ignorieren</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Hilfe</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>Standardwerte wiederherstellen</translation>
    </message>
    <message>
        <source>Close without Saving</source>
        <translation>Schließen ohne zu speichern</translation>
    </message>
    <message>
        <source>Don&apos;t Save</source>
        <translation>Nicht speichern</translation>
    </message>
</context>
<context>
    <name>QShortcut</name>
    <message>
        <source>Ctrl</source>
        <translation>Strg</translation>
    </message>
    <message>
        <source>Shift</source>
        <translation>Umschalt</translation>
    </message>
    <message>
        <source>Alt</source>
        <translation>Alt</translation>
    </message>
    <message>
        <source>Meta</source>
        <translation>Meta</translation>
    </message>
    <message>
        <source>Del</source>
        <translation>Entf</translation>
    </message>
    <message>
        <source>Ins</source>
        <translation>Einfg</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Backspace</source>
        <translation>Rücktaste</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>Leertaste</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <source>Tab</source>
        <translation>Tab</translation>
    </message>
    <message>
        <source>Home</source>
        <translation>Pos1</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>PgUp</source>
        <translation>Bild aufwärts</translation>
    </message>
    <message>
        <source>PgDown</source>
        <translation>Bild abwärts</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>Links</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Rechts</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Runter</translation>
    </message>
</context>
<context>
    <name>golightly::app::AboutDialog</name>
    <message>
        <source>About GoLightly</source>
        <translation>Über GoLightly</translation>
    </message>
    <message>
        <source>&lt;h2&gt;GoLightly&lt;/h2&gt;&lt;p&gt;A GPU FDTD IDE for photonic devices.&lt;/p&gt;&lt;p&gt;&lt;tt&gt;%1&lt;/tt&gt;&lt;/p&gt;</source>
        <translation>&lt;h2&gt;GoLightly&lt;/h2&gt;&lt;p&gt;Eine GPU-FDTD-Entwicklungsumgebung für photonische Bauelemente.&lt;/p&gt;&lt;p&gt;&lt;tt&gt;%1&lt;/tt&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source> (tests only, not shipped)</source>
        <translation> (nur für Tests, nicht ausgeliefert)</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Libraries and their licences&lt;/b&gt;&lt;/p&gt;&lt;table cellspacing=&quot;4&quot;&gt;&lt;tr&gt;&lt;th align=&quot;left&quot;&gt;Library&lt;/th&gt;&lt;th align=&quot;left&quot;&gt;Licence&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;&lt;p&gt;Because QCustomPlot is licensed under the GPL v3, the GoLightly IDE as a whole is distributed under the GPL v3. The full texts are in the copyright files of the Debian packages (/usr/share/doc/&amp;lt;package&amp;gt;/copyright); the list is in /usr/share/doc/golightly/THIRD_PARTY_LICENSES.txt.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Bibliotheken und ihre Lizenzen&lt;/b&gt;&lt;/p&gt;&lt;table cellspacing=&quot;4&quot;&gt;&lt;tr&gt;&lt;th align=&quot;left&quot;&gt;Bibliothek&lt;/th&gt;&lt;th align=&quot;left&quot;&gt;Lizenz&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;&lt;p&gt;Da QCustomPlot unter der GPL v3 lizenziert ist, wird die GoLightly-IDE als Ganzes unter der GPL v3 verbreitet. Die vollständigen Lizenztexte stehen in den copyright-Dateien der Debian-Pakete (/usr/share/doc/&amp;lt;Paket&amp;gt;/copyright); die Liste steht in /usr/share/doc/golightly/THIRD_PARTY_LICENSES.txt.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>golightly::app::InverseDesignDock</name>
    <message>
        <source>Inverse Design</source>
        <translation>Inverses Design</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Continue from the last design with the project as it is now</source>
        <translation>Ab dem letzten Design mit dem Projekt in seinem jetzigen Zustand weitermachen</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Export design as GDS...</source>
        <translation>Design als GDS exportieren...</translation>
    </message>
    <message>
        <source>The last design&apos;s binarized contours (density 1/2), as golightly-cli optimize --adjoint writes final.gds</source>
        <translation>Die binarisierten Konturen des letzten Designs (Dichte 1/2), wie golightly-cli optimize --adjoint final.gds schreibt</translation>
    </message>
    <message>
        <source>Apply design as shapes</source>
        <translation>Design als Formen übernehmen</translation>
    </message>
    <message>
        <source>Replace the design region by the last design as polygons (one undo step), to run the binarized device</source>
        <translation>Den Designbereich durch das letzte Design als Polygone ersetzen (ein Rückgängig-Schritt), um das binarisierte Bauteil zu simulieren</translation>
    </message>
    <message>
        <source>Draw a design region (Tools &gt; Design Region), choose the objective, then Start.</source>
        <translation>Einen Designbereich zeichnen (Werkzeuge &gt; Designbereich), die Zielfunktion wählen, dann Start.</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielfunktion</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>Monitor</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>Richtung</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Add term</source>
        <translation>Term hinzufügen</translation>
    </message>
    <message>
        <source>Remove term</source>
        <translation>Term entfernen</translation>
    </message>
    <message>
        <source>Normalize by</source>
        <translation>Normieren auf</translation>
    </message>
    <message>
        <source>the spectrum&apos;s centre</source>
        <translation>die Mitte des Spektrums</translation>
    </message>
    <message>
        <source>Wavelengths (µm)</source>
        <translation>Wellenlängen (µm)</translation>
    </message>
    <message>
        <source>maximize</source>
        <translation>maximieren</translation>
    </message>
    <message>
        <source>minimize</source>
        <translation>minimieren</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimierer</translation>
    </message>
    <message>
        <source>MMA and CCSA take the minimum length constraints; L-BFGS does not</source>
        <translation>MMA und CCSA berücksichtigen die Mindestlängen-Nebenbedingungen, L-BFGS nicht</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>Algorithmus</translation>
    </message>
    <message>
        <source>Max iterations</source>
        <translation>Max. Iterationen</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>Iteration</translation>
    </message>
    <message>
        <source>figure of merit</source>
        <translation>Gütezahl</translation>
    </message>
    <message>
        <source>Export design as GDS</source>
        <translation>Design als GDS exportieren</translation>
    </message>
    <message>
        <source>GDSII (*.gds)</source>
        <translation>GDSII (*.gds)</translation>
    </message>
    <message>
        <source>Add a mode monitor first: objective terms read the power in one of its modes.</source>
        <translation>Zuerst einen Modenmonitor hinzufügen: Zielfunktionsterme lesen die Leistung in einer seiner Moden.</translation>
    </message>
    <message>
        <source>Add objective term</source>
        <translation>Zielfunktionsterm hinzufügen</translation>
    </message>
    <message>
        <source>Remove objective term</source>
        <translation>Zielfunktionsterm entfernen</translation>
    </message>
    <message>
        <source>Edit objective normalization</source>
        <translation>Normierung der Zielfunktion bearbeiten</translation>
    </message>
    <message>
        <source>Wavelengths: &quot;%1&quot; is not a positive number (µm)</source>
        <translation>Wellenlängen: „%1“ ist keine positive Zahl (µm)</translation>
    </message>
    <message>
        <source>Edit objective wavelengths</source>
        <translation>Wellenlängen der Zielfunktion bearbeiten</translation>
    </message>
    <message>
        <source>Edit objective goal</source>
        <translation>Ziel der Zielfunktion bearbeiten</translation>
    </message>
    <message>
        <source>Edit optimizer</source>
        <translation>Optimierer bearbeiten</translation>
    </message>
    <message>
        <source>|%1|² at (%2)</source>
        <translation>|%1|² bei (%2)</translation>
    </message>
    <message>
        <source>Edit objective term</source>
        <translation>Zielfunktionsterm bearbeiten</translation>
    </message>
    <message>
        <source>The slot in the monitor&apos;s modes (0: its first mode)</source>
        <translation>Der Platz in den Moden des Monitors (0: seine erste Mode)</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>vorwärts</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>rückwärts</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Nothing to resume: Pause a running optimization first.</source>
        <translation>Nichts fortzusetzen: zuerst eine laufende Optimierung anhalten.</translation>
    </message>
    <message>
        <source>The optimization is running already.</source>
        <translation>Die Optimierung läuft bereits.</translation>
    </message>
    <message>
        <source>No output folder for the checkpoint.</source>
        <translation>Kein Ausgabeordner für den Checkpoint.</translation>
    </message>
    <message>
        <source>Cannot create the folder %1: %2</source>
        <translation>Der Ordner %1 kann nicht angelegt werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>All %n iteration(s) are done: raise Max iterations to go on.</source>
        <translation>
            <numerusform>Die %n Iteration ist erledigt: Max. Iterationen erhöhen, um weiterzumachen.</numerusform>
            <numerusform>Alle %n Iterationen sind erledigt: Max. Iterationen erhöhen, um weiterzumachen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Starting: compiling the project and the normalization run...</source>
        <translation>Start: Projekt wird kompiliert, Normierungslauf...</translation>
    </message>
    <message>
        <source>Resuming from iteration %1...</source>
        <translation>Fortsetzen ab Iteration %1...</translation>
    </message>
    <message>
        <source>Stopped at iteration %1.</source>
        <translation>Bei Iteration %1 gestoppt.</translation>
    </message>
    <message>
        <source>Iterating: forward and adjoint runs...</source>
        <translation>Iteration: Vorwärts- und adjungierte Läufe...</translation>
    </message>
    <message>
        <source>Iteration %1 of %2: figure of merit %3, beta %4, |grad| %5; %6 s per iteration, ETA %7</source>
        <translation>Iteration %1 von %2: Gütezahl %3, Beta %4, |grad| %5; %6 s pro Iteration, Restzeit %7</translation>
    </message>
    <message>
        <source>The optimization failed: %1</source>
        <translation>Die Optimierung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Stopped after iteration %1 (%2); the design is in %3.</source>
        <translation>Nach Iteration %1 gestoppt (%2); das Design liegt in %3.</translation>
    </message>
    <message>
        <source>Paused after iteration %1: edit the project if needed, then Resume.</source>
        <translation>Nach Iteration %1 angehalten: Projekt bei Bedarf bearbeiten, dann Fortsetzen.</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n iteration(s) (%1); the design is in %2.</source>
        <translation>
            <numerusform>Fertig: %n Iteration (%1); das Design liegt in %2.</numerusform>
            <numerusform>Fertig: %n Iterationen (%1); das Design liegt in %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>No 2D design to export yet: run the optimization first.</source>
        <translation>Noch kein 2D-Design zum Exportieren: zuerst die Optimierung ausführen.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n polygon(s) on layer %1/%2 to %3</source>
        <translation>
            <numerusform>%n Polygon auf Layer %1/%2 nach %3 exportiert</numerusform>
            <numerusform>%n Polygone auf Layer %1/%2 nach %3 exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export the design: %1</source>
        <translation>Das Design kann nicht exportiert werden: %1</translation>
    </message>
    <message>
        <source>No 2D design to apply yet: run the optimization first.</source>
        <translation>Noch kein 2D-Design zum Übernehmen: zuerst die Optimierung ausführen.</translation>
    </message>
    <message>
        <source>The project has no design region to replace.</source>
        <translation>Das Projekt hat keinen Designbereich, der ersetzt werden könnte.</translation>
    </message>
    <message>
        <source>The design region is now plain shapes (new layers on top); Edit &gt; Undo gives it back.</source>
        <translation>Der Designbereich besteht jetzt aus einfachen Formen (neue Layer oben); Bearbeiten &gt; Rückgängig stellt ihn wieder her.</translation>
    </message>
    <message>
        <source>Cannot apply the design: %1</source>
        <translation>Das Design kann nicht übernommen werden: %1</translation>
    </message>
    <message>
        <source>The projected density of the last iteration (black: the high material, white: the low one)</source>
        <translation>Die projizierte Dichte der letzten Iteration (schwarz: das hohe Material, weiß: das niedrige)</translation>
    </message>
    <message>
        <source>Stop now (the iteration under way is dropped); edit the project, then Resume</source>
        <translation>Sofort anhalten (die laufende Iteration wird verworfen); Projekt bearbeiten, dann Fortsetzen</translation>
    </message>
    <message>
        <source>End the optimization now (the iteration under way is dropped)</source>
        <translation>Die Optimierung sofort beenden (die laufende Iteration wird verworfen)</translation>
    </message>
    <message>
        <source>Forward field</source>
        <translation>Vorwärtsfeld</translation>
    </message>
    <message>
        <source>Adjoint field</source>
        <translation>Adjungiertes Feld</translation>
    </message>
    <message>
        <source>The forward run&apos;s field, or the adjoint field whose product with it gives the gradient</source>
        <translation>Das Feld des Vorwärtslaufs oder das adjungierte Feld, dessen Produkt mit ihm den Gradienten ergibt</translation>
    </message>
    <message>
        <source>|E|²</source>
        <translation>|E|²</translation>
    </message>
    <message>
        <source>|E|² or the real part of one E component</source>
        <translation>|E|² oder der Realteil einer E-Komponente</translation>
    </message>
    <message>
        <source>Pausing...</source>
        <translation>Pause wird eingelegt...</translation>
    </message>
    <message>
        <source>Stopping...</source>
        <translation>Wird gestoppt...</translation>
    </message>
    <message>
        <source>Re %1</source>
        <translation>Re %1</translation>
    </message>
    <message>
        <source>The field in the design region appears after the first iteration</source>
        <translation>Das Feld im Designbereich erscheint nach der ersten Iteration</translation>
    </message>
    <message>
        <source>%1 over the design region at %2 µm, last iteration; scaled to its maximum %3 (white: 0, red: the maximum%4)</source>
        <translation>%1 über dem Designbereich bei %2 µm, letzte Iteration; auf sein Maximum %3 skaliert (weiß: 0, rot: das Maximum%4)</translation>
    </message>
    <message>
        <source>, blue: minus the maximum</source>
        <translation>, blau: minus das Maximum</translation>
    </message>
    <message>
        <source>Wavelengths (µm, comma separated) at which the figure of merit is evaluated</source>
        <translation>Wellenlängen (µm, durch Kommas getrennt), bei denen die Gütezahl ausgewertet wird</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Worst wavelength</source>
        <translation>Schlechteste Wellenlänge</translation>
    </message>
    <message>
        <source>Combine</source>
        <translation>Zusammenfassen</translation>
    </message>
    <message>
        <source>Edit objective combination</source>
        <translation>Zusammenfassung der Zielfunktion bearbeiten</translation>
    </message>
    <message>
        <source>L-BFGS takes no constraints: the worst wavelength needs MMA or CCSA (choose Combine: Mean first)</source>
        <translation>L-BFGS nimmt keine Nebenbedingungen: die schlechteste Wellenlänge braucht MMA oder CCSA (zuerst Zusammenfassen: Mittelwert wählen)</translation>
    </message>
    <message>
        <source>%1 µm</source>
        <translation>%1 µm</translation>
    </message>
    <message>
        <source>Normalization run (the input power for the start design): %1 steps...</source>
        <translation>Normierungslauf (die Eingangsleistung des Startentwurfs): %1 Schritte...</translation>
    </message>
    <message>
        <source>Stopped during the normalization run, before iteration %1.</source>
        <translation>Während des Normierungslaufs angehalten, vor Iteration %1.</translation>
    </message>
    <message>
        <source>Paused during the normalization run, before iteration %1: edit the project if needed, then Resume.</source>
        <translation>Während des Normierungslaufs pausiert, vor Iteration %1: das Projekt bei Bedarf bearbeiten, dann Fortsetzen.</translation>
    </message>
    <message>
        <source>Cancelled during the normalization run.</source>
        <translation>Während des Normierungslaufs abgebrochen.</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>Formel</translation>
    </message>
    <message>
        <source>How the wavelengths combine: their mean, the worst one (the epigraph form; needs MMA or CCSA), or a formula of F0, F1, ... (F_k: the figure of merit at the k-th wavelength)</source>
        <translation>Wie die Wellenlängen zusammengefasst werden: ihr Mittelwert, die schlechteste (Epigraph-Form; braucht MMA oder CCSA) oder eine Formel aus F0, F1, ... (F_k: die Gütezahl bei der k-ten Wellenlänge)</translation>
    </message>
    <message>
        <source>e.g. avg(F0, F1, F2) - 0.5 * abs(F0 - F2)</source>
        <translation>z. B. avg(F0, F1, F2) - 0.5 * abs(F0 - F2)</translation>
    </message>
    <message>
        <source>The figure of merit as a formula of F0, F1, ... (F_k: the weighted sum of the terms at the k-th wavelength of the list; without a list F0 at the spectrum&apos;s centre). Functions: min, max, sum, avg, abs, sqrt, exp, log, ...</source>
        <translation>Die Gütezahl als Formel aus F0, F1, ... (F_k: die gewichtete Summe der Terme bei der k-ten Wellenlänge der Liste; ohne Liste F0 in der Mitte des Spektrums). Funktionen: min, max, sum, avg, abs, sqrt, exp, log, ...</translation>
    </message>
    <message>
        <source>Formula not applied: %1</source>
        <translation>Formel nicht übernommen: %1</translation>
    </message>
    <message>
        <source>Edit objective formula</source>
        <translation>Formel der Zielfunktion bearbeiten</translation>
    </message>
    <message>
        <source>L-BFGS takes no constraints: the robust design (the worst of three designs) needs MMA or CCSA (turn Robust design off in the design region&apos;s Properties first)</source>
        <translation>L-BFGS nimmt keine Nebenbedingungen: das robuste Design (das schlechteste von drei Designs) braucht MMA oder CCSA (zuerst in den Eigenschaften des Designbereichs &quot;Robustes Design&quot; ausschalten)</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <source>The project has no design: draw a design region with Tools &gt; Design Region (its density is optimized), or add shape parameters below (project parameters to optimize).</source>
        <translation>Das Projekt hat kein Design: mit Werkzeuge &gt; Designbereich einen Designbereich zeichnen (seine Dichte wird optimiert) oder unten Formparameter hinzufügen (zu optimierende Projektparameter).</translation>
    </message>
    <message>
        <source>Shape parameters</source>
        <translation>Formparameter</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Max</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>A project parameter (Parameters dock) that the optimizer moves; its value now is the start</source>
        <translation>Ein Projektparameter (Parameter-Fenster), den der Optimierer verändert; sein jetziger Wert ist der Startwert</translation>
    </message>
    <message>
        <source>The smallest value the optimizer may give the parameter (its units)</source>
        <translation>Der kleinste Wert, den der Optimierer dem Parameter geben darf (in seinen Einheiten)</translation>
    </message>
    <message>
        <source>The largest value the optimizer may give the parameter (its units)</source>
        <translation>Der größte Wert, den der Optimierer dem Parameter geben darf (in seinen Einheiten)</translation>
    </message>
    <message>
        <source>The half step of the central difference that gives d eps / d p (below (max - min) / 2); empty: 1e-4 (max - min)</source>
        <translation>Der halbe Schritt der zentralen Differenz, die d eps / d p ergibt (unter (Max - Min) / 2); leer: 1e-4 (Max - Min)</translation>
    </message>
    <message>
        <source>Add parameter</source>
        <translation>Parameter hinzufügen</translation>
    </message>
    <message>
        <source>Optimize one more project parameter (first the ones not listed yet)</source>
        <translation>Einen weiteren Projektparameter optimieren (zuerst die noch nicht aufgeführten)</translation>
    </message>
    <message>
        <source>Remove parameter</source>
        <translation>Parameter entfernen</translation>
    </message>
    <message>
        <source>Stop optimizing the selected parameter (its value stays)</source>
        <translation>Den gewählten Parameter nicht mehr optimieren (sein Wert bleibt)</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>This design optimizes the density of its design region. A design has one kind of variable: delete the design region to optimize shape parameters instead.</source>
        <translation>Dieses Design optimiert die Dichte seines Designbereichs. Ein Design hat eine Art von Variablen: Löschen Sie den Designbereich, um stattdessen Formparameter zu optimieren.</translation>
    </message>
    <message>
        <source>Shape parameters are project parameters (widths, positions, ...: Parameters dock) that the optimizer moves within [min, max]. Add a parameter in the Parameters dock first.</source>
        <translation>Formparameter sind Projektparameter (Breiten, Positionen, ...: Parameter-Fenster), die der Optimierer innerhalb von [Min, Max] verändert. Fügen Sie zuerst im Parameter-Fenster einen Parameter hinzu.</translation>
    </message>
    <message>
        <source>Each parameter starts from its value now (shown beside its name).</source>
        <translation>Jeder Parameter startet bei seinem jetzigen Wert (neben seinem Namen angezeigt).</translation>
    </message>
    <message>
        <source>Shape parameters are project parameters (widths, positions, ...) that the optimizer moves within [min, max], from their values now.</source>
        <translation>Formparameter sind Projektparameter (Breiten, Positionen, ...), die der Optimierer ab ihren jetzigen Werten innerhalb von [Min, Max] verändert.</translation>
    </message>
    <message>
        <source>Not applied: %1: &quot;%2&quot; is not a number</source>
        <translation>Nicht übernommen: %1: „%2“ ist keine Zahl</translation>
    </message>
    <message>
        <source>Edit shape parameter</source>
        <translation>Formparameter bearbeiten</translation>
    </message>
    <message>
        <source>This design optimizes the density of its design region: a design has one kind of variable.</source>
        <translation>Dieses Design optimiert die Dichte seines Designbereichs: Ein Design hat eine Art von Variablen.</translation>
    </message>
    <message>
        <source>The project has no parameters: add one in the Parameters dock first.</source>
        <translation>Das Projekt hat keine Parameter: Fügen Sie zuerst im Parameter-Fenster einen hinzu.</translation>
    </message>
    <message>
        <source>Every parameter of the project is listed already.</source>
        <translation>Alle Parameter des Projekts sind bereits aufgeführt.</translation>
    </message>
    <message>
        <source>Add shape parameter</source>
        <translation>Formparameter hinzufügen</translation>
    </message>
    <message>
        <source>Remove shape parameter</source>
        <translation>Formparameter entfernen</translation>
    </message>
    <message>
        <source>The last shape parameter is removed, and with it the design (Edit &gt; Undo brings it back).</source>
        <translation>Der letzte Formparameter ist entfernt und mit ihm das Design (Bearbeiten &gt; Rückgängig stellt es wieder her).</translation>
    </message>
    <message>
        <source>Optimize the design: its design region&apos;s density, or its shape parameters from their values now (Run &gt; Optimize (adjoint))</source>
        <translation>Das Design optimieren: die Dichte seines Designbereichs oder seine Formparameter ab ihren jetzigen Werten (Ausführen &gt; Optimieren (adjungiert))</translation>
    </message>
    <message>
        <source>A design of shape parameters: choose the objective, then Start (the optimization golightly-cli optimize --adjoint PROJECT runs).</source>
        <translation>Ein Design aus Formparametern: die Zielfunktion wählen, dann Start (die Optimierung, die golightly-cli optimize --adjoint PROJEKT ausführt).</translation>
    </message>
    <message>
        <source>The project has no design: draw a design region with Tools &gt; Design Region, or add shape parameters.</source>
        <translation>Das Projekt hat kein Design: einen Designbereich mit Werkzeuge &gt; Designbereich zeichnen oder Formparameter hinzufügen.</translation>
    </message>
    <message>
        <source>The design changed its kind (density region or shape parameters) since the run paused: Start afresh.</source>
        <translation>Das Design hat seit der Pause seine Art gewechselt (Dichtebereich oder Formparameter): neu starten.</translation>
    </message>
    <message>
        <source>Optimize shape parameters</source>
        <translation>Formparameter optimieren</translation>
    </message>
    <message>
        <source>The parameter values could not be set in the project: %1</source>
        <translation>Die Parameterwerte konnten nicht ins Projekt übernommen werden: %1</translation>
    </message>
    <message>
        <source>The shape parameters&apos; values of the last iteration (after the run: the best ones found) and their bounds [min, max]; the project holds them (Edit &gt; Undo gives back the values before the run)</source>
        <translation>Die Werte der Formparameter in der letzten Iteration (nach dem Lauf: die besten gefundenen) und ihre Grenzen [min, max]; das Projekt enthält sie (Bearbeiten &gt; Rückgängig stellt die Werte vor dem Lauf wieder her)</translation>
    </message>
    <message>
        <source>Iteration %1 of %2: figure of merit %3 at %4, |grad| %5; %6 s per iteration, ETA %7</source>
        <translation>Iteration %1 von %2: Gütezahl %3 bei %4, |grad| %5; %6 s pro Iteration, Restzeit %7</translation>
    </message>
    <message>
        <source>Stopped after iteration %1 (%2); the parameters hold the best values found (%3, figure of merit %4); Edit &gt; Undo gives back the values before the run.</source>
        <translation>Nach Iteration %1 gestoppt (%2); die Parameter haben die besten gefundenen Werte (%3, Gütezahl %4); Bearbeiten &gt; Rückgängig stellt die Werte vor dem Lauf wieder her.</translation>
    </message>
    <message>
        <source>Paused after iteration %1: the parameters hold the best values so far (%2); edit the project if needed, then Resume.</source>
        <translation>Nach Iteration %1 pausiert: die Parameter haben die bisher besten Werte (%2); das Projekt bei Bedarf bearbeiten, dann Fortsetzen.</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n iteration(s) (%1); the best figure of merit %2 at %3, now the parameters&apos; values (Edit &gt; Undo gives back the values before the run).</source>
        <translation>
            <numerusform>Fertig: %n Iteration (%1); die beste Gütezahl %2 bei %3, jetzt die Werte der Parameter (Bearbeiten &gt; Rückgängig stellt die Werte vor dem Lauf wieder her).</numerusform>
            <numerusform>Fertig: %n Iterationen (%1); die beste Gütezahl %2 bei %3, jetzt die Werte der Parameter (Bearbeiten &gt; Rückgängig stellt die Werte vor dem Lauf wieder her).</numerusform>
        </translation>
    </message>
    <message>
        <source>The project was edited since the run started: the optimizer starts again from the parameters&apos; values now (the iteration numbering goes on; the optimizer&apos;s memory of the earlier steps does not)...</source>
        <translation>Das Projekt wurde seit dem Start des Laufs bearbeitet: der Optimierer beginnt neu ab den jetzigen Werten der Parameter (die Nummerierung der Iterationen läuft weiter, das Gedächtnis des Optimierers an die früheren Schritte nicht)...</translation>
    </message>
    <message>
        <source>The field around the shapes appears after the first iteration</source>
        <translation>Das Feld um die Formen erscheint nach der ersten Iteration</translation>
    </message>
    <message>
        <source>%1 around the shapes (the bounding box of the sites the shape parameters move, grown by a margin) at %2 µm, last iteration; scaled to its maximum %3 (white: 0, red: the maximum%4)</source>
        <translation>%1 um die Formen (der umschließende Quader der Stellen, die die Formparameter verschieben, um einen Rand vergrößert) bei %2 µm, letzte Iteration; auf sein Maximum %3 skaliert (weiß: 0, rot: das Maximum%4)</translation>
    </message>
    <message>
        <source>; blank: a source&apos;s sites (not sampled)</source>
        <translation>; leer: die Stellen einer Quelle (nicht abgetastet)</translation>
    </message>
    <message>
        <source>%1 at the sites the shape parameters move (the only ones the shape gradient samples), over their bounding box at %2 µm, last iteration; blank: not sampled; scaled to its maximum %3 (white: 0, red: the maximum%4)</source>
        <translation>%1 an den Stellen, die die Formparameter verschieben (die einzigen, die der Formgradient abtastet), über ihrem umschließenden Quader bei %2 µm, letzte Iteration; leer: nicht abgetastet; auf sein Maximum %3 skaliert (weiß: 0, rot: das Maximum%4)</translation>
    </message>
</context>
<context>
    <name>golightly::app::Language</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>Systemstandard</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>The language changes when GoLightly is started again.</source>
        <translation>Die Sprache wird beim nächsten Start von GoLightly geändert.</translation>
    </message>
</context>
<context>
    <name>golightly::app::MainWindow</name>
    <message>
        <source>x = %1 µm   y = %2 µm</source>
        <translation>x = %1 µm   y = %2 µm</translation>
    </message>
    <message>
        <source>%1 px/µm   grid %2 µm</source>
        <translation>%1 px/µm   Raster %2 µm</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>Ö&amp;ffnen...</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As...</source>
        <translation>Speichern &amp;unter...</translation>
    </message>
    <message>
        <source>&amp;Import GoLightly Bitmap Model...</source>
        <translation>GoLightly-Bitmap-Modell &amp;importieren...</translation>
    </message>
    <message>
        <source>Export Canvas as &amp;PNG...</source>
        <translation>Zeichenfläche als &amp;PNG exportieren...</translation>
    </message>
    <message>
        <source>Export Canvas as S&amp;VG...</source>
        <translation>Zeichenfläche als S&amp;VG exportieren...</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <source>GoLightly projects (*.glproj);;All files (*)</source>
        <translation>GoLightly-Projekte (*.glproj);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation>Projekt speichern unter</translation>
    </message>
    <message>
        <source>GoLightly projects (*.glproj)</source>
        <translation>GoLightly-Projekte (*.glproj)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>&amp;Ausschneiden</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>E&amp;infügen</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation>D&amp;uplizieren</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation>An &amp;Fenster anpassen</translation>
    </message>
    <message>
        <source>&amp;1:1 (one cell per pixel)</source>
        <translation>&amp;1:1 (eine Zelle pro Pixel)</translation>
    </message>
    <message>
        <source>Show &amp;Grid</source>
        <translation>&amp;Raster anzeigen</translation>
    </message>
    <message>
        <source>&amp;Snap to Grid and Vertices</source>
        <translation>An Raster und Eckpunkten &amp;einrasten</translation>
    </message>
    <message>
        <source>Structure &amp;Preview (as the solver sees it)</source>
        <translation>Struktur&amp;vorschau (wie der Löser sie sieht)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Werkzeuge</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Werkzeuge</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Select / Move</source>
        <translation>Auswählen / Verschieben</translation>
    </message>
    <message>
        <source>Rectangle</source>
        <translation>Rechteck</translation>
    </message>
    <message>
        <source>Ellipse</source>
        <translation>Ellipse</translation>
    </message>
    <message>
        <source>Polygon</source>
        <translation>Polygon</translation>
    </message>
    <message>
        <source>Ring</source>
        <translation>Ring</translation>
    </message>
    <message>
        <source>Waveguide Path</source>
        <translation>Wellenleiterpfad</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>Pinsel</translation>
    </message>
    <message>
        <source>Eraser</source>
        <translation>Radierer</translation>
    </message>
    <message>
        <source>Point Source</source>
        <translation>Punktquelle</translation>
    </message>
    <message>
        <source>Line Source</source>
        <translation>Linienquelle</translation>
    </message>
    <message>
        <source>Region Source</source>
        <translation>Flächenquelle</translation>
    </message>
    <message>
        <source>Flux Monitor</source>
        <translation>Flussmonitor</translation>
    </message>
    <message>
        <source>Time Probe</source>
        <translation>Zeitsonde</translation>
    </message>
    <message>
        <source>DFT Field Region</source>
        <translation>DFT-Feldbereich</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About GoLightly</source>
        <translation>Ü&amp;ber GoLightly</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Tool Options</source>
        <translation>Werkzeugoptionen</translation>
    </message>
    <message>
        <source>Path width</source>
        <translation>Pfadbreite</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source>Bend radius</source>
        <translation>Biegeradius</translation>
    </message>
    <message>
        <source>Ring inner/outer</source>
        <translation>Ring innen/außen</translation>
    </message>
    <message>
        <source>Hardness</source>
        <translation>Härte</translation>
    </message>
    <message>
        <source>Tool: %1</source>
        <translation>Werkzeug: %1</translation>
    </message>
    <message>
        <source>%1%2 - GoLightly</source>
        <translation>%1%2 – GoLightly</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>Projekt speichern</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>Automatisches Speichern fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>GoLightly did not shut down cleanly. Unsaved work of &quot;%1&quot; was autosaved at %2.

Recover it?</source>
        <translation>GoLightly wurde nicht ordnungsgemäß beendet. Ungespeicherte Arbeit an „%1“ wurde um %2 automatisch gesichert.

Wiederherstellen?</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <source>Recovery failed</source>
        <translation>Wiederherstellung fehlgeschlagen</translation>
    </message>
    <message>
        <source>The recovery file could not be read:

%1</source>
        <translation>Die Wiederherstellungsdatei konnte nicht gelesen werden:

%1</translation>
    </message>
    <message>
        <source>Paste shape</source>
        <translation>Form einfügen</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Export canvas as SVG</source>
        <translation>Zeichenfläche als SVG exportieren</translation>
    </message>
    <message>
        <source>Export canvas as PNG</source>
        <translation>Zeichenfläche als PNG exportieren</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <source>GoLightly canvas export, %1 px per µm</source>
        <translation>GoLightly-Export der Zeichenfläche, %1 px pro µm</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>%1 konnte nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>%1 is not a readable image.</source>
        <translation>%1 ist kein lesbares Bild.</translation>
    </message>
    <message>
        <source>Import bitmap model</source>
        <translation>Bitmap-Modell importieren</translation>
    </message>
    <message>
        <source>Import GoLightly bitmap model</source>
        <translation>GoLightly-Bitmap-Modell importieren</translation>
    </message>
    <message>
        <source>Images (*.png *.bmp *.tif *.tiff);;All files (*)</source>
        <translation>Bilder (*.png *.bmp *.tif *.tiff);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Bitmap model</source>
        <translation>Bitmap-Modell</translation>
    </message>
    <message>
        <source>%1 µm</source>
        <translation>%1 µm</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Bild</translation>
    </message>
    <message>
        <source>%1 x %2 pixels</source>
        <translation>%1 × %2 Pixel</translation>
    </message>
    <message>
        <source>eps at green = 255</source>
        <translation>eps bei Grün = 255</translation>
    </message>
    <message>
        <source>Physical width</source>
        <translation>Physikalische Breite</translation>
    </message>
    <message>
        <source>Physical height</source>
        <translation>Physikalische Höhe</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stopp</translation>
    </message>
    <message>
        <source>Show &amp;Field View</source>
        <translation>&amp;Feldansicht</translation>
    </message>
    <message>
        <source>Open Run &amp;Results...</source>
        <translation>Lauf&amp;ergebnisse öffnen...</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source> Field </source>
        <translation> Feld </translation>
    </message>
    <message>
        <source>Field quantity shown while running</source>
        <translation>Während des Laufs angezeigte Feldgröße</translation>
    </message>
    <message>
        <source>Auto scale</source>
        <translation>Automatische Skala</translation>
    </message>
    <message>
        <source>Fixed colour scale: half range (symmetric)</source>
        <translation>Feste Farbskala: halber Bereich (symmetrisch)</translation>
    </message>
    <message>
        <source> Frames/s </source>
        <translation> Bilder/s </translation>
    </message>
    <message>
        <source>Frames per second sent by the solver (0: none)</source>
        <translation>Vom Löser gesendete Bilder pro Sekunde (0: keine)</translation>
    </message>
    <message>
        <source>Open run results</source>
        <translation>Laufergebnisse öffnen</translation>
    </message>
    <message>
        <source> (paused)</source>
        <translation> (pausiert)</translation>
    </message>
    <message>
        <source>%1 Results: %2</source>
        <translation>%1 Ergebnisse: %2</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>Lauf fehlgeschlagen</translation>
    </message>
    <message>
        <source>A run is going already.</source>
        <translation>Es läuft bereits ein Lauf.</translation>
    </message>
    <message>
        <source>Compiling...</source>
        <translation>Kompilieren...</translation>
    </message>
    <message>
        <source>&amp;Live Edit</source>
        <translation>&amp;Live-Bearbeitung</translation>
    </message>
    <message>
        <source>Live edit: while a run is going, painting or moving shapes updates the solver&apos;s materials and the wave responds (the spectra are then not comparable)</source>
        <translation>Live-Bearbeitung: Während ein Lauf läuft, aktualisiert das Malen oder Verschieben von Formen die Materialien des Lösers und die Welle reagiert (die Spektren sind dann nicht vergleichbar)</translation>
    </message>
    <message>
        <source>Live edit</source>
        <translation>Live-Bearbeitung</translation>
    </message>
    <message>
        <source>Live edit %1 applied to the run %2 ms after the edit</source>
        <translation>Live-Bearbeitung %1 wurde %2 ms nach der Änderung auf den Lauf angewendet</translation>
    </message>
    <message>
        <source>Live edit not applied: %1</source>
        <translation>Live-Bearbeitung nicht angewendet: %1</translation>
    </message>
    <message>
        <source>Field frames: %1</source>
        <translation>Feldbilder: %1</translation>
    </message>
    <message>
        <source>Import S&amp;TEP...</source>
        <translation>S&amp;TEP importieren...</translation>
    </message>
    <message>
        <source>Re-import STEP of the Selected Part...</source>
        <translation>STEP des ausgewählten Teils neu importieren...</translation>
    </message>
    <message>
        <source>Import STEP</source>
        <translation>STEP importieren</translation>
    </message>
    <message>
        <source>STEP files (*.step *.stp *.STEP *.STP);;All files (*)</source>
        <translation>STEP-Dateien (*.step *.stp *.STEP *.STP);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Re-import STEP</source>
        <translation>STEP neu importieren</translation>
    </message>
    <message>
        <source>Select an imported STEP part first.</source>
        <translation>Wählen Sie zuerst ein importiertes STEP-Teil aus.</translation>
    </message>
    <message>
        <source>Reading %1...</source>
        <translation>%1 wird gelesen...</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>Anordnung &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>The language changes when the run ends (or is stopped).</source>
        <translation>Die Sprache wechselt, wenn der Lauf endet (oder angehalten wird).</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;Start Page</source>
        <translation>&amp;Startseite</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Tool keys work wherever the focus is, except while typing in a field; Esc in a dock returns to the canvas. Space + drag or the middle button pans.</source>
        <translation>Werkzeugtasten wirken überall, außer beim Tippen in einem Feld; Esc in einem Dock gibt die Tasten der Zeichenfläche zurück. Leertaste + Ziehen oder die mittlere Maustaste verschiebt die Ansicht.</translation>
    </message>
    <message>
        <source>Reference run</source>
        <translation>Referenzlauf</translation>
    </message>
    <message>
        <source>Main run</source>
        <translation>Hauptlauf</translation>
    </message>
    <message>
        <source>Reference run (normalization)</source>
        <translation>Referenzlauf (Normierung)</translation>
    </message>
    <message>
        <source>at most %1</source>
        <translation>höchstens %1</translation>
    </message>
    <message>
        <source>%1: %2 fs, step %3; %4; ETA %5; %6 Mcells/s%7</source>
        <translation>%1: %2 fs, Schritt %3; %4; Restzeit %5; %6 MZellen/s%7</translation>
    </message>
    <message numerus="yes">
        <source>Not started: %n problem(s) to fix.</source>
        <translation>
            <numerusform>Nicht gestartet: %n Problem zu beheben.</numerusform>
            <numerusform>Nicht gestartet: %n Probleme zu beheben.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot run</source>
        <translation>Lauf nicht möglich</translation>
    </message>
    <message>
        <source>The run cannot start until these are fixed:

%1</source>
        <translation>Der Lauf kann erst beginnen, wenn dies behoben ist:

%1</translation>
    </message>
    <message>
        <source>The run could not start.</source>
        <translation>Der Lauf konnte nicht beginnen.</translation>
    </message>
    <message>
        <source>Saved results of %1 (%2). </source>
        <translation>Gespeicherte Ergebnisse von %1 (%2). </translation>
    </message>
    <message>
        <source>Import &amp;GDS...</source>
        <translation>&amp;GDS importieren...</translation>
    </message>
    <message>
        <source>&amp;Export GDS...</source>
        <translation>GDS &amp;exportieren...</translation>
    </message>
    <message>
        <source>Import GDS</source>
        <translation>GDS importieren</translation>
    </message>
    <message>
        <source>GDSII files (*.gds *.gds2 *.gdsii *.GDS);;All files (*)</source>
        <translation>GDSII-Dateien (*.gds *.gds2 *.gdsii *.GDS);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Export GDS</source>
        <translation>GDS exportieren</translation>
    </message>
    <message>
        <source>GDSII files (*.gds)</source>
        <translation>GDSII-Dateien (*.gds)</translation>
    </message>
    <message>
        <source>Cell name</source>
        <translation>Name der Zelle</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1 geschrieben</translation>
    </message>
    <message>
        <source>3D view</source>
        <translation>3D-Ansicht</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>Schnitt</translation>
    </message>
    <message>
        <source> Slice </source>
        <translation> Schnitt </translation>
    </message>
    <message>
        <source>The plane of the 3D grid the field view shows (changes a running run at once)</source>
        <translation>Die Schnittebene des 3D-Gitters, die die Feldansicht zeigt (wirkt sofort auch auf einen laufenden Lauf)</translation>
    </message>
    <message>
        <source>Position of the slice along its normal</source>
        <translation>Position des Schnitts entlang seiner Normalen</translation>
    </message>
    <message>
        <source>Slice Back</source>
        <translation>Schnitt zurück</translation>
    </message>
    <message>
        <source>Slice Forward</source>
        <translation>Schnitt vor</translation>
    </message>
    <message>
        <source>Sphere (3D)</source>
        <translation>Kugel (3D)</translation>
    </message>
    <message>
        <source>Box (3D)</source>
        <translation>Quader (3D)</translation>
    </message>
    <message>
        <source>TF/SF Source Box</source>
        <translation>TF/SF-Quellbox</translation>
    </message>
    <message>
        <source>Flux Box Monitor</source>
        <translation>Flussbox-Monitor</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>B&amp;eispiele</translation>
    </message>
    <message>
        <source>Slice %1 at %2 = %3 µm</source>
        <translation>Schnitt %1 bei %2 = %3 µm</translation>
    </message>
    <message>
        <source>Set slice</source>
        <translation>Schnitt festlegen</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Compute &amp;S-parameters</source>
        <translation>S-Parameter &amp;berechnen</translation>
    </message>
    <message>
        <source>One run per port and mode of the project&apos;s ports; |S_ij| and phase in the S-parameters dock (%1)</source>
        <translation>Ein Lauf pro Port und Mode der Ports des Projekts; |S_ij| und Phase im S-Parameter-Fenster (%1)</translation>
    </message>
    <message>
        <source>Cancel S-parameters</source>
        <translation>S-Parameter abbrechen</translation>
    </message>
    <message>
        <source>Opened the design %1</source>
        <translation>Design %1 geöffnet</translation>
    </message>
    <message>
        <source>Tool keys work on the canvas: Esc returns the keys to it.</source>
        <translation>Werkzeugtasten wirken auf der Zeichenfläche: Esc gibt ihr die Tasten zurück.</translation>
    </message>
    <message>
        <source>Name the project</source>
        <translation>Projekt benennen</translation>
    </message>
    <message>
        <source>Results of %1 (run before the first save). </source>
        <translation>Ergebnisse von %1 (Lauf vor dem ersten Speichern). </translation>
    </message>
    <message>
        <source>Results: %1</source>
        <translation>Ergebnisse: %1</translation>
    </message>
    <message>
        <source>Saved %1 with the results made before the first save: %2</source>
        <translation>%1 gespeichert, mit den Ergebnissen von vor dem ersten Speichern: %2</translation>
    </message>
    <message>
        <source>Saved %1; the results made before the first save stay in %2 (the project&apos;s results folder exists already)</source>
        <translation>%1 gespeichert; die Ergebnisse von vor dem ersten Speichern bleiben in %2 (der Ergebnisordner des Projekts existiert bereits)</translation>
    </message>
    <message>
        <source>The fields diverged here: %1</source>
        <translation>Hier sind die Felder divergiert: %1</translation>
    </message>
    <message>
        <source>%1 is read-only (an installed example): the results go to %2</source>
        <translation>%1 ist schreibgeschützt (ein installiertes Beispiel): die Ergebnisse gehen nach %2</translation>
    </message>
    <message>
        <source>Mode Monitor</source>
        <translation>Modenmonitor</translation>
    </message>
    <message>
        <source>Stop picture</source>
        <translation>Bild anhalten</translation>
    </message>
    <message>
        <source>The field picture is a second run: wait for this run to end.</source>
        <translation>Das Feldbild ist ein zweiter Lauf: Warten Sie, bis dieser Lauf endet.</translation>
    </message>
    <message>
        <source>%1: compiling...</source>
        <translation>%1: Kompilieren...</translation>
    </message>
    <message>
        <source>Field picture of %1 (the real part at its frequency)</source>
        <translation>Feldbild von %1 (der Realteil bei seiner Frequenz)</translation>
    </message>
    <message>
        <source>Resonance field picture</source>
        <translation>Feldbild einer Resonanz</translation>
    </message>
    <message>
        <source>Optimize (&amp;adjoint)</source>
        <translation>Optimieren (&amp;adjungiert)</translation>
    </message>
    <message>
        <source>Design Region</source>
        <translation>Designbereich</translation>
    </message>
    <message>
        <source>Optimize the design (a design region&apos;s density or the shape parameters) with adjoint gradients; live in the Inverse Design dock (%1)</source>
        <translation>Das Design (die Dichte eines Designbereichs oder die Formparameter) mit adjungierten Gradienten optimieren; live im Dock Inverses Design (%1)</translation>
    </message>
</context>
<context>
    <name>golightly::app::ModeViewerDock</name>
    <message>
        <source>Port Modes</source>
        <translation>Portmoden</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source> modes</source>
        <translation> Moden</translation>
    </message>
    <message>
        <source>Solve</source>
        <translation>Lösen</translation>
    </message>
    <message>
        <source>Wavelength</source>
        <translation>Wellenlänge</translation>
    </message>
    <message>
        <source>|E|</source>
        <translation>|E|</translation>
    </message>
    <message>
        <source>|E_u|</source>
        <translation>|E_u|</translation>
    </message>
    <message>
        <source>|E_v|</source>
        <translation>|E_v|</translation>
    </message>
    <message>
        <source>|E_w| (along the port&apos;s normal)</source>
        <translation>|E_w| (entlang der Port-Normalen)</translation>
    </message>
    <message>
        <source>Permittivity</source>
        <translation>Permittivität</translation>
    </message>
    <message>
        <source>Picture</source>
        <translation>Darstellung</translation>
    </message>
    <message>
        <source>Pick a port and Solve: its modes before any run.</source>
        <translation>Port wählen und „Lösen“: seine Moden schon vor jedem Lauf.</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>n_eff</source>
        <translation>n_eff</translation>
    </message>
    <message>
        <source>n_group</source>
        <translation>n_group</translation>
    </message>
    <message>
        <source>TE fraction</source>
        <translation>TE-Anteil</translation>
    </message>
    <message>
        <source>The project has no ports (top-level &quot;ports&quot;, see the user guide).</source>
        <translation>Das Projekt hat keine Ports (JSON-Feld „ports“ auf oberster Ebene, siehe Benutzerhandbuch).</translation>
    </message>
    <message>
        <source>Solving the modes of port %1 at %2 µm...</source>
        <translation>Moden von Port %1 bei %2 µm werden berechnet...</translation>
    </message>
    <message>
        <source>Cannot solve the modes: %1</source>
        <translation>Die Moden können nicht berechnet werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n mode(s) of the %1-%2 cross-section at %3 µm (full-vector, PEC window).</source>
        <translation>
            <numerusform>%n Mode des %1-%2-Querschnitts bei %3 µm (vollvektoriell, PEC-Fenster).</numerusform>
            <numerusform>%n Moden des %1-%2-Querschnitts bei %3 µm (vollvektoriell, PEC-Fenster).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n guided slab mode(s) of the port line at %1 µm (as the mode source and the S-parameter runs see them).</source>
        <translation>
            <numerusform>%n geführte Slab-Mode der Portlinie bei %1 µm (so, wie die Modenquelle und die S-Parameter-Läufe sie sehen).</numerusform>
            <numerusform>%n geführte Slab-Moden der Portlinie bei %1 µm (so, wie die Modenquelle und die S-Parameter-Läufe sie sehen).</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 along the port (µm)</source>
        <translation>%1 entlang des Ports (µm)</translation>
    </message>
    <message>
        <source>Mode %1 field (arbitrary units)</source>
        <translation>Feld der Mode %1 (willkürliche Einheiten)</translation>
    </message>
    <message>
        <source>%1 (µm)</source>
        <translation>%1 (µm)</translation>
    </message>
    <message numerus="yes">
        <source>%n port(s). Pick one and a wavelength, then Solve: its modes before any run.</source>
        <translation>
            <numerusform>%n Port. Wählen Sie ihn und eine Wellenlänge, dann Lösen: seine Moden vor jedem Lauf.</numerusform>
            <numerusform>%n Ports. Wählen Sie einen und eine Wellenlänge, dann Lösen: seine Moden vor jedem Lauf.</numerusform>
        </translation>
    </message>
    <message>
        <source>Solved before the last edit (Solve again for the current project): %1</source>
        <translation>Vor der letzten Änderung gelöst (für das aktuelle Projekt erneut Lösen): %1</translation>
    </message>
    <message>
        <source>The modes of the previous project were discarded.</source>
        <translation>Die Moden des vorigen Projekts wurden verworfen.</translation>
    </message>
    <message>
        <source>by index (modes)</source>
        <translation>nach Index (modes)</translation>
    </message>
    <message>
        <source>by target n_eff</source>
        <translation>nach Ziel-n_eff</translation>
    </message>
    <message>
        <source>How the port keeps the mode picked: its index in this list, or its effective index as the port&apos;s target_neff (3D)</source>
        <translation>Wie der Port die gewählte Mode festhält: ihr Index in dieser Liste oder ihr effektiver Index als target_neff des Ports (3D)</translation>
    </message>
    <message>
        <source>Use for the port</source>
        <translation>Für den Port verwenden</translation>
    </message>
    <message>
        <source>Make the mode shown the port&apos;s mode (also: double-click its picture)</source>
        <translation>Die gezeigte Mode zur Mode des Ports machen (auch: Doppelklick auf ihr Bild)</translation>
    </message>
    <message>
        <source>Pick</source>
        <translation>Wahl</translation>
    </message>
    <message>
        <source>Im n_eff</source>
        <translation>Im n_eff</translation>
    </message>
    <message>
        <source>Loss (dB/cm)</source>
        <translation>Verlust (dB/cm)</translation>
    </message>
    <message>
        <source>Bend loss (dB/90°)</source>
        <translation>Biegeverlust (dB/90°)</translation>
    </message>
    <message>
        <source>Port %1: target n_eff %2</source>
        <translation>Port %1: Ziel-n_eff %2</translation>
    </message>
    <message>
        <source>Port %1: mode %2</source>
        <translation>Port %1: Mode %2</translation>
    </message>
    <message>
        <source>not resolved</source>
        <translation>nicht aufgelöst</translation>
    </message>
    <message>
        <source>The port&apos;s PML on the outer side of the bend begins %1 µm from the guide, before the radiation caustic (where n_clad·(1 + x/R) reaches n_eff). n_eff holds; for the bend loss widen the port on the outer side of the bend.</source>
        <translation>Die PML des Ports auf der Außenseite der Biegung beginnt %1 µm vom Wellenleiter, vor der Strahlungskaustik (wo n_clad·(1 + x/R) n_eff erreicht). n_eff gilt; für den Biegeverlust den Port auf der Außenseite der Biegung verbreitern.</translation>
    </message>
</context>
<context>
    <name>golightly::app::ProgressModel</name>
    <message>
        <source>stops at the step limit (%1 steps)</source>
        <translation>endet an der Schrittgrenze (%1 Schritte)</translation>
    </message>
    <message>
        <source>stops at the time limit (%1 fs)</source>
        <translation>endet an der Zeitgrenze (%1 fs)</translation>
    </message>
    <message>
        <source>the probe&apos;s decay</source>
        <translation>Abklingen der Sonde</translation>
    </message>
    <message>
        <source>energy decay</source>
        <translation>Energieabfall</translation>
    </message>
    <message>
        <source>, or when the resonance estimates converge (%1)</source>
        <translation>, oder wenn die Resonanzschätzungen konvergieren (%1)</translation>
    </message>
    <message>
        <source>stops at %1 dB %2 (now %3 dB)</source>
        <translation>endet bei %1 dB %2 (jetzt %3 dB)</translation>
    </message>
    <message>
        <source>stops at %1 dB %2 after the sources end (%3 fs)</source>
        <translation>endet bei %1 dB %2, nachdem die Quellen enden (%3 fs)</translation>
    </message>
    <message>
        <source>, before %1 dB %2: now %3 dB, falling too slowly to get there first</source>
        <translation>, vor %1 dB %2: jetzt %3 dB, fällt zu langsam, um zuerst dort anzukommen</translation>
    </message>
</context>
<context>
    <name>golightly::app::ResonancePictureRun</name>
    <message>
        <source>%1: %2 fs, step %3</source>
        <translation>%1: %2 fs, Schritt %3</translation>
    </message>
    <message>
        <source>The field picture of %1 failed: %2</source>
        <translation>Das Feldbild von %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>The field picture of %1 was stopped.</source>
        <translation>Das Feldbild von %1 wurde angehalten.</translation>
    </message>
    <message>
        <source>The field picture of %1 holds no field.</source>
        <translation>Das Feldbild von %1 enthält kein Feld.</translation>
    </message>
    <message>
        <source>Resonance %1 µm (Q %2, %3)</source>
        <translation>Resonanz %1 µm (Q %2, %3)</translation>
    </message>
    <message>
        <source>A field picture is being made; stop it first.</source>
        <translation>Ein Feldbild wird gerade erstellt; halten Sie es zuerst an.</translation>
    </message>
    <message>
        <source>The field picture of %1 cannot start: %2</source>
        <translation>Das Feldbild von %1 kann nicht starten: %2</translation>
    </message>
    <message>
        <source>The field picture of %1 cannot start.</source>
        <translation>Das Feldbild von %1 kann nicht starten.</translation>
    </message>
</context>
<context>
    <name>golightly::app::SParamsDock</name>
    <message>
        <source>S-parameters</source>
        <translation>S-Parameter</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Berechnen</translation>
    </message>
    <message>
        <source>One run per port and mode of the project&apos;s ports (Run &gt; Compute S-parameters)</source>
        <translation>Ein Lauf pro Port und Mode der Ports des Projekts (Ausführen &gt; S-Parameter berechnen)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Open...</source>
        <translation>Öffnen...</translation>
    </message>
    <message>
        <source>Show a sparams.csv written by golightly-cli sparams or an earlier computation</source>
        <translation>Eine sparams.csv anzeigen, die golightly-cli sparams oder eine frühere Berechnung geschrieben hat</translation>
    </message>
    <message>
        <source>No S-parameters yet: give the project ports, then Run &gt; Compute S-parameters.</source>
        <translation>Noch keine S-Parameter: Fügen Sie dem Projekt Ports hinzu, dann Ausführen &gt; S-Parameter berechnen.</translation>
    </message>
    <message>
        <source>Open S-parameters</source>
        <translation>S-Parameter öffnen</translation>
    </message>
    <message>
        <source>S-parameter table (sparams.csv *.csv)</source>
        <translation>S-Parameter-Tabelle (sparams.csv *.csv)</translation>
    </message>
    <message>
        <source>S-parameters are being computed already.</source>
        <translation>Die S-Parameter werden bereits berechnet.</translation>
    </message>
    <message>
        <source>Cannot compute S-parameters: %1</source>
        <translation>S-Parameter können nicht berechnet werden: %1</translation>
    </message>
    <message>
        <source>port run 1 of %1</source>
        <translation>Port-Lauf 1 von %1</translation>
    </message>
    <message numerus="yes">
        <source>Computing S-parameters: %n port run(s)...</source>
        <translation>
            <numerusform>S-Parameter werden berechnet: %n Port-Lauf...</numerusform>
            <numerusform>S-Parameter werden berechnet: %n Port-Läufe...</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling...</source>
        <translation>Wird abgebrochen...</translation>
    </message>
    <message>
        <source>port run %1 of %2 — %3 % — ETA %4</source>
        <translation>Port-Lauf %1 von %2 — %3 % — Restzeit %4</translation>
    </message>
    <message>
        <source>done in %1</source>
        <translation>fertig in %1</translation>
    </message>
    <message numerus="yes">
        <source>S-parameters of %n port-mode(s), %1 wavelengths; written to %2</source>
        <translation>
            <numerusform>S-Parameter von %n Port-Mode, %1 Wellenlängen; geschrieben nach %2</numerusform>
            <numerusform>S-Parameter von %n Port-Moden, %1 Wellenlängen; geschrieben nach %2</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n of %1 port run(s); the plots show the finished columns.</source>
        <translation>
            <numerusform>Abgebrochen nach %n von %1 Port-Läufen; die Diagramme zeigen die fertigen Spalten.</numerusform>
            <numerusform>Abgebrochen nach %n von %1 Port-Läufen; die Diagramme zeigen die fertigen Spalten.</numerusform>
        </translation>
    </message>
    <message>
        <source>S-parameters failed: %1</source>
        <translation>S-Parameter-Berechnung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Cannot read S-parameters: %1</source>
        <translation>S-Parameter können nicht gelesen werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n port-mode(s), %2 wavelengths</source>
        <translation>
            <numerusform>%1: %n Port-Mode, %2 Wellenlängen</numerusform>
            <numerusform>%1: %n Port-Moden, %2 Wellenlängen</numerusform>
        </translation>
    </message>
    <message>
        <source>These S-parameters are of %1, not of the open project.</source>
        <translation>Diese S-Parameter gehören zu %1, nicht zum geöffneten Projekt.</translation>
    </message>
    <message>
        <source>an untitled project</source>
        <translation>einem unbenannten Projekt</translation>
    </message>
    <message>
        <source>Computed before the last edit: Compute again for the current geometry.</source>
        <translation>Vor der letzten Änderung berechnet: Für die aktuelle Geometrie erneut berechnen.</translation>
    </message>
</context>
<context>
    <name>golightly::app::StartPage</name>
    <message>
        <source>Quick start: a waveguide bend</source>
        <translation>Schnellstart: eine Wellenleiterbiegung</translation>
    </message>
    <message>
        <source>Fresnel slab (R = 0.25)</source>
        <translation>Fresnel-Platte (R = 0,25)</translation>
    </message>
    <message>
        <source>90-degree waveguide bend</source>
        <translation>90-Grad-Wellenleiterbiegung</translation>
    </message>
    <message>
        <source>Ring resonator</source>
        <translation>Ringresonator</translation>
    </message>
    <message>
        <source>Gold slit grating</source>
        <translation>Goldspaltgitter</translation>
    </message>
    <message>
        <source>STEP import: ring filter</source>
        <translation>STEP-Import: Ringfilter</translation>
    </message>
    <message>
        <source>&lt;h1&gt;Welcome to GoLightly&lt;/h1&gt;&lt;p&gt;Draw a photonic device on layers, press &lt;b&gt;Run (F5)&lt;/b&gt; and watch the light travel through it while the transmission and reflection spectra fill in.&lt;/p&gt;</source>
        <translation>&lt;h1&gt;Willkommen bei GoLightly&lt;/h1&gt;&lt;p&gt;Zeichnen Sie ein photonisches Bauteil auf Ebenen, drücken Sie &lt;b&gt;Ausführen (F5)&lt;/b&gt; und sehen Sie zu, wie das Licht hindurchläuft, während sich die Transmissions- und Reflexionsspektren füllen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>New Project</source>
        <translation>Neues Projekt</translation>
    </message>
    <message>
        <source>A new project: a 10 x 8 µm domain with silicon and silica (Ctrl+N)</source>
        <translation>Ein neues Projekt: ein Rechengebiet von 10 x 8 µm mit Silizium und Siliziumdioxid (Strg+N)</translation>
    </message>
    <message>
        <source>Open Project...</source>
        <translation>Projekt öffnen...</translation>
    </message>
    <message>
        <source>User Guide</source>
        <translation>Benutzerhandbuch</translation>
    </message>
    <message>
        <source>The first steps, the tools and the run, explained (F1)</source>
        <translation>Die ersten Schritte, die Werkzeuge und der Lauf, erklärt (F1)</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Examples&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Beispiele&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>The examples folder was not found.</source>
        <translation>Der Beispielordner wurde nicht gefunden.</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Recent projects&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Zuletzt verwendete Projekte&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>No recent projects yet.</source>
        <translation>Noch keine zuletzt verwendeten Projekte.</translation>
    </message>
    <message>
        <source>Glass slab at 30° (Bloch)</source>
        <translation>Glasplatte unter 30° (Bloch)</translation>
    </message>
    <message>
        <source>Si grating: diffraction orders</source>
        <translation>Si-Gitter: Beugungsordnungen</translation>
    </message>
    <message>
        <source>Si grating lit at 20°</source>
        <translation>Si-Gitter, unter 20° beleuchtet</translation>
    </message>
    <message>
        <source>Inverse design: a waveguide bend</source>
        <translation>Inverses Design: eine Wellenleiterbiegung</translation>
    </message>
    <message>
        <source>Inverse design: a TE0 to TE1 mode converter</source>
        <translation>Inverses Design: ein TE0-TE1-Modenwandler</translation>
    </message>
    <message>
        <source> (3D)</source>
        <translation> (3D)</translation>
    </message>
    <message>
        <source>Dipole over a ground plane</source>
        <translation>Dipol über einer Massefläche</translation>
    </message>
    <message>
        <source>Gold nanosphere</source>
        <translation>Gold-Nanokugel</translation>
    </message>
    <message>
        <source>Gold nanosphere, B-CALM case</source>
        <translation>Gold-Nanokugel, B-CALM-Fall</translation>
    </message>
    <message>
        <source>Gold nanosphere, B-CALM case, %1 nm cells</source>
        <translation>Gold-Nanokugel, B-CALM-Fall, Zellen von %1 nm</translation>
    </message>
    <message>
        <source>Scattering by a dielectric sphere</source>
        <translation>Streuung an einer dielektrischen Kugel</translation>
    </message>
    <message>
        <source>Si strip: S-parameters</source>
        <translation>Si-Streifenwellenleiter: S-Parameter</translation>
    </message>
    <message>
        <source>Si strip taper, mirror symmetry</source>
        <translation>Si-Streifen-Taper, Spiegelsymmetrie</translation>
    </message>
    <message>
        <source>Si strip taper</source>
        <translation>Si-Streifen-Taper</translation>
    </message>
</context>
<context>
    <name>golightly::app::SweepDock</name>
    <message>
        <source>Sweep / Optimize</source>
        <translation>Sweep / Optimierung</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Vary</source>
        <translation>Variieren</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Bis</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>Punkte</translation>
    </message>
    <message>
        <source>A number (µm, fs or no unit) or an expression such as 250 nm or 2 * w</source>
        <translation>Eine Zahl (µm, fs oder ohne Einheit) oder ein Ausdruck wie 250 nm oder 2 * w</translation>
    </message>
    <message>
        <source>Sweep: values from From to To inclusive. Optimize: From..To are the bounds.</source>
        <translation>Sweep: Werte von „Von“ bis einschließlich „Bis“. Optimieren: Von..Bis sind die Grenzen.</translation>
    </message>
    <message>
        <source>Add Parameter...</source>
        <translation>Parameter hinzufügen...</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Add Parameter</source>
        <translation>Parameter hinzufügen</translation>
    </message>
    <message>
        <source>Name (letters, digits, _):</source>
        <translation>Name (Buchstaben, Ziffern, _):</translation>
    </message>
    <message>
        <source>Value of %1 (number or expression):</source>
        <translation>Wert von %1 (Zahl oder Ausdruck):</translation>
    </message>
    <message>
        <source>The flux monitor whose (normalized) value is plotted</source>
        <translation>Der Flussmonitor, dessen (normierter) Wert aufgetragen wird</translation>
    </message>
    <message>
        <source>at</source>
        <translation>bei</translation>
    </message>
    <message>
        <source>Sweep plots</source>
        <translation>Sweep zeigt</translation>
    </message>
    <message>
        <source>An expression over the monitors at wavelengths in µm and the parameters, e.g. T(1.55) or min(T(1.5), T(1.6)) - R(1.55)</source>
        <translation>Ein Ausdruck aus den Monitoren bei Wellenlängen in µm und den Parametern, z. B. T(1.55) oder min(T(1.5), T(1.6)) - R(1.55)</translation>
    </message>
    <message>
        <source>Minimize</source>
        <translation>Minimieren</translation>
    </message>
    <message>
        <source>Optimize</source>
        <translation>Optimieren</translation>
    </message>
    <message>
        <source>at most </source>
        <translation>höchstens </translation>
    </message>
    <message>
        <source> runs</source>
        <translation> Läufe</translation>
    </message>
    <message>
        <source>bobyqa, cobyla, neldermead, sbplx: local; direct, crs2, esch, isres: global (NLopt)</source>
        <translation>bobyqa, cobyla, neldermead, sbplx: lokal; direct, crs2, esch, isres: global (NLopt)</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Run every design of the varied parameters&apos; ranges</source>
        <translation>Jedes Design in den Bereichen der variierten Parameter ausführen</translation>
    </message>
    <message>
        <source>Search the varied parameters&apos; ranges for the best objective</source>
        <translation>Die Bereiche der variierten Parameter nach dem besten Zielwert durchsuchen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Tick Vary for one or two parameters, then Sweep or Optimize.</source>
        <translation>„Variieren“ für einen oder zwei Parameter ankreuzen, dann „Sweep“ oder „Optimieren“.</translation>
    </message>
    <message>
        <source>Click a point to open that design</source>
        <translation>Einen Punkt anklicken, um dieses Design zu öffnen</translation>
    </message>
    <message>
        <source>= %1</source>
        <translation>= %1</translation>
    </message>
    <message>
        <source>%1: not a number</source>
        <translation>%1: keine Zahl</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid parameter name (letters, digits and _, not starting with a digit; not a unit or function name)</source>
        <translation>„%1“ ist kein gültiger Parametername (Buchstaben, Ziffern und _, nicht mit einer Ziffer beginnend; kein Einheiten- oder Funktionsname)</translation>
    </message>
    <message>
        <source>The project has a parameter %1 already.</source>
        <translation>Das Projekt hat bereits einen Parameter %1.</translation>
    </message>
    <message>
        <source>Add parameter %1</source>
        <translation>Parameter %1 hinzufügen</translation>
    </message>
    <message>
        <source>Parameter %1 added.</source>
        <translation>Parameter %1 hinzugefügt.</translation>
    </message>
    <message>
        <source>Remove parameter %1</source>
        <translation>Parameter %1 entfernen</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>%1 kann nicht entfernt werden: %2</translation>
    </message>
    <message>
        <source>Parameter %1 removed.</source>
        <translation>Parameter %1 entfernt.</translation>
    </message>
    <message>
        <source>Set parameter %1</source>
        <translation>Parameter %1 festlegen</translation>
    </message>
    <message>
        <source>A sweep or optimization is running already.</source>
        <translation>Es läuft bereits ein Sweep oder eine Optimierung.</translation>
    </message>
    <message>
        <source>Tick Vary for at least one parameter (add one with Add Parameter... if the project has none).</source>
        <translation>„Variieren“ für mindestens einen Parameter ankreuzen (mit „Parameter hinzufügen...“ einen anlegen, falls das Projekt keinen hat).</translation>
    </message>
    <message>
        <source>%1: From must be below To.</source>
        <translation>%1: „Von“ muss kleiner als „Bis“ sein.</translation>
    </message>
    <message>
        <source>The project has no flux monitor to plot.</source>
        <translation>Das Projekt hat keinen Flussmonitor zum Auftragen.</translation>
    </message>
    <message>
        <source>Give an objective, e.g. T(1.55).</source>
        <translation>Geben Sie ein Ziel an, z. B. T(1.55).</translation>
    </message>
    <message>
        <source>starting...</source>
        <translation>wird gestartet...</translation>
    </message>
    <message>
        <source>Optimizing %1 over %2 (at most %3 runs) into %4</source>
        <translation>%1 wird über %2 optimiert (höchstens %3 Läufe), Ausgabe nach %4</translation>
    </message>
    <message numerus="yes">
        <source>Sweeping %1 over %n design(s) into %2</source>
        <translation>
            <numerusform>Sweep von %1 über %n Design, Ausgabe nach %2</numerusform>
            <numerusform>Sweep von %1 über %n Designs, Ausgabe nach %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Best: %1; objective %2 at run %3 of %4 (%5). Click a point to open that design.</source>
        <translation>Bestes: %1; Zielwert %2 bei Lauf %3 von %4 (%5). Einen Punkt anklicken, um dieses Design zu öffnen.</translation>
    </message>
    <message>
        <source>%1 designs: %2 ran, %3 reused, %4 failed%5. Click a point to open that design.</source>
        <translation>%1 Designs: %2 ausgeführt, %3 wiederverwendet, %4 fehlgeschlagen%5. Einen Punkt anklicken, um dieses Design zu öffnen.</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>, abgebrochen</translation>
    </message>
    <message>
        <source>Cancelling: the running design stops, no other starts...</source>
        <translation>Wird abgebrochen: Das laufende Design wird angehalten, kein weiteres gestartet...</translation>
    </message>
    <message>
        <source>run %1 of at most %2 — ETA %3</source>
        <translation>Lauf %1 von höchstens %2 — Restzeit %3</translation>
    </message>
    <message>
        <source>design %1 of %2 — ETA %3</source>
        <translation>Design %1 von %2 — Restzeit %3</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>done in %1</source>
        <translation>fertig in %1</translation>
    </message>
    <message>
        <source>finished with errors</source>
        <translation>mit Fehlern beendet</translation>
    </message>
    <message>
        <source>best</source>
        <translation>bestes</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>Design</translation>
    </message>
    <message>
        <source>an untitled project</source>
        <translation>einem unbenannten Projekt</translation>
    </message>
    <message>
        <source>Optimization of %1, not of the open project.</source>
        <translation>Optimierung von %1, nicht des geöffneten Projekts.</translation>
    </message>
    <message>
        <source>Sweep of %1, not of the open project.</source>
        <translation>Sweep von %1, nicht des geöffneten Projekts.</translation>
    </message>
    <message>
        <source>Optimized before the last edit: the points are of the project as it was then.</source>
        <translation>Vor der letzten Änderung optimiert: Die Punkte gehören zum Projekt in seinem damaligen Zustand.</translation>
    </message>
    <message>
        <source>Swept before the last edit: the points are of the project as it was then.</source>
        <translation>Vor der letzten Änderung gesweept: Die Punkte gehören zum Projekt in seinem damaligen Zustand.</translation>
    </message>
</context>
<context>
    <name>golightly::app::UserGuideViewer</name>
    <message>
        <source>GoLightly User Guide</source>
        <translation>GoLightly-Benutzerhandbuch</translation>
    </message>
    <message>
        <source>Back (Alt+Left)</source>
        <translation>Zurück (Alt+Links)</translation>
    </message>
    <message>
        <source>Forward (Alt+Right)</source>
        <translation>Vor (Alt+Rechts)</translation>
    </message>
    <message>
        <source>The guide&apos;s first page</source>
        <translation>Die erste Seite des Handbuchs</translation>
    </message>
    <message>
        <source>Find in the guide (Ctrl+F, Enter: next)</source>
        <translation>Im Handbuch suchen (Strg+F, Eingabe: weiter)</translation>
    </message>
    <message>
        <source>&lt;h2&gt;The user guide was not found&lt;/h2&gt;&lt;p&gt;GoLightly looks for &lt;code&gt;user-guide.md&lt;/code&gt; in &lt;code&gt;%1&lt;/code&gt; and &lt;code&gt;/usr/share/doc/golightly/&lt;/code&gt; (the package installs it there) and, when it runs from a build, in the source tree&apos;s &lt;code&gt;docs/&lt;/code&gt;.&lt;/p&gt;&lt;p&gt;The guide is also online: &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Das Benutzerhandbuch wurde nicht gefunden&lt;/h2&gt;&lt;p&gt;GoLightly sucht &lt;code&gt;user-guide.md&lt;/code&gt; in &lt;code&gt;%1&lt;/code&gt; und &lt;code&gt;/usr/share/doc/golightly/&lt;/code&gt; (dort installiert es das Paket) und, wenn es aus einem Build-Verzeichnis läuft, in &lt;code&gt;docs/&lt;/code&gt; des Quellbaums.&lt;/p&gt;&lt;p&gt;Das Handbuch gibt es auch online: &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Not found: %1</source>
        <translation>Nicht gefunden: %1</translation>
    </message>
    <message>
        <source>No program opens %1</source>
        <translation>Kein Programm öffnet %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not in this page</source>
        <translation>„%1“ steht nicht auf dieser Seite</translation>
    </message>
</context>
<context>
    <name>golightly::editor::BackgroundJob</name>
    <message>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
</context>
<context>
    <name>golightly::editor::BoxItemTool</name>
    <message>
        <source>TF/SF Box</source>
        <translation>TF/SF-Box</translation>
    </message>
    <message>
        <source>Flux Box</source>
        <translation>Flussbox</translation>
    </message>
    <message>
        <source>Drag a box: total field inside, scattered field outside (plane wave along +x)</source>
        <translation>Eine Box aufziehen: innen Gesamtfeld, außen Streufeld (ebene Welle entlang +x)</translation>
    </message>
    <message>
        <source>Drag a box: net outward flux, or absorption / scattering cross-sections</source>
        <translation>Eine Box aufziehen: Nettofluss nach außen oder Absorptions-/Streuquerschnitte</translation>
    </message>
</context>
<context>
    <name>golightly::editor::BrushTool</name>
    <message>
        <source>Erase</source>
        <translation>Radieren</translation>
    </message>
    <message>
        <source>Paint</source>
        <translation>Malen</translation>
    </message>
    <message>
        <source>Eraser</source>
        <translation>Radierer</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>Pinsel</translation>
    </message>
    <message>
        <source>Drag to paint the current layer&apos;s material (size and hardness in the tool options)</source>
        <translation>Ziehen, um das Material der aktuellen Ebene zu malen (Größe und Härte in den Werkzeugoptionen)</translation>
    </message>
    <message>
        <source>The Eraser erases painted material only. To remove this drawn shape, select it (Select tool, V) and press Delete.</source>
        <translation>Der Radierer entfernt nur gemaltes Material. Um diese gezeichnete Form zu entfernen, wählen Sie sie aus (Auswahlwerkzeug, V) und drücken Sie Entf.</translation>
    </message>
    <message>
        <source>Nothing is painted on layer &quot;%1&quot;: the Eraser erases Brush strokes. To remove a drawn shape, select it (Select tool, V) and press Delete.</source>
        <translation>Auf der Ebene „%1“ ist nichts gemalt: Der Radierer entfernt Pinselstriche. Um eine gezeichnete Form zu entfernen, wählen Sie sie aus (Auswahlwerkzeug, V) und drücken Sie Entf.</translation>
    </message>
    <message>
        <source>Drag to erase Brush strokes (size and hardness in the tool options). Drawn shapes: select and Delete</source>
        <translation>Ziehen, um Pinselstriche zu radieren (Größe und Härte in den Werkzeugoptionen). Gezeichnete Formen: auswählen und Entf</translation>
    </message>
</context>
<context>
    <name>golightly::editor::Canvas</name>
    <message>
        <source>Structure preview: %1 x %2 cells, eps_r up to %3</source>
        <translation>Strukturvorschau: %1 × %2 Zellen, eps_r bis %3</translation>
    </message>
    <message>
        <source>Structure preview unavailable: %1</source>
        <translation>Strukturvorschau nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>µm</source>
        <translation>µm</translation>
    </message>
    <message>
        <source>Re-import STEP...</source>
        <translation>STEP neu importieren...</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>port %1</source>
        <translation>Port %1</translation>
    </message>
</context>
<context>
    <name>golightly::editor::DesignRegionTool</name>
    <message>
        <source>The design region must be at least one pixel across.</source>
        <translation>Der Designbereich muss mindestens ein Pixel groß sein.</translation>
    </message>
    <message>
        <source>Move design region</source>
        <translation>Designbereich verschieben</translation>
    </message>
    <message>
        <source>Draw design region</source>
        <translation>Designbereich zeichnen</translation>
    </message>
    <message>
        <source>Design region</source>
        <translation>Designbereich</translation>
    </message>
    <message>
        <source>Draw the design region first: fixed boxes lie inside it.</source>
        <translation>Zuerst den Designbereich zeichnen: feste Boxen liegen in ihm.</translation>
    </message>
    <message>
        <source>A fixed box must hold at least one whole pixel of the design region.</source>
        <translation>Eine feste Box muss mindestens ein ganzes Pixel des Designbereichs enthalten.</translation>
    </message>
    <message>
        <source>Add fixed solid box</source>
        <translation>Feste Vollbox hinzufügen</translation>
    </message>
    <message>
        <source>Add fixed void box</source>
        <translation>Feste Leerbox hinzufügen</translation>
    </message>
    <message>
        <source>Drag from corner to corner to draw the inverse-design region (its density is optimized by Run &gt; Optimize (adjoint)); Shift+drag inside it: a fixed solid box, Ctrl+drag: a fixed void box</source>
        <translation>Von Ecke zu Ecke ziehen, um den Bereich des inversen Designs zu zeichnen (seine Dichte optimiert Ausführen &gt; Optimieren (adjungiert)); Umschalt+Ziehen darin: eine feste Vollbox, Strg+Ziehen: eine feste Leerbox</translation>
    </message>
</context>
<context>
    <name>golightly::editor::DragShapeTool</name>
    <message>
        <source>Rectangle</source>
        <translation>Rechteck</translation>
    </message>
    <message>
        <source>Ellipse</source>
        <translation>Ellipse</translation>
    </message>
    <message>
        <source>Ring</source>
        <translation>Ring</translation>
    </message>
    <message>
        <source>Draw %1</source>
        <translation>%1 zeichnen</translation>
    </message>
    <message>
        <source>Drag from corner to corner to draw; the current layer&apos;s material fills it</source>
        <translation>Von Ecke zu Ecke ziehen, um zu zeichnen; das Material der aktuellen Ebene füllt die Form</translation>
    </message>
</context>
<context>
    <name>golightly::editor::EditorDocument</name>
    <message>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <source>Add source</source>
        <translation>Quelle hinzufügen</translation>
    </message>
    <message>
        <source>Add monitor</source>
        <translation>Monitor hinzufügen</translation>
    </message>
    <message>
        <source>Delete shape</source>
        <translation>Form löschen</translation>
    </message>
    <message>
        <source>Delete source</source>
        <translation>Quelle löschen</translation>
    </message>
    <message>
        <source>Delete monitor</source>
        <translation>Monitor löschen</translation>
    </message>
    <message>
        <source>Duplicate shape</source>
        <translation>Form duplizieren</translation>
    </message>
    <message>
        <source>Move shape</source>
        <translation>Form verschieben</translation>
    </message>
    <message>
        <source>Move source</source>
        <translation>Quelle verschieben</translation>
    </message>
    <message>
        <source>Move monitor</source>
        <translation>Monitor verschieben</translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation>Projekt kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>The project file could not be opened:

%1

The file was not changed, and this window keeps its current project.</source>
        <translation>Die Projektdatei konnte nicht geöffnet werden:

%1

Die Datei wurde nicht verändert, und dieses Fenster behält sein aktuelles Projekt.</translation>
    </message>
    <message>
        <source>Cannot save project</source>
        <translation>Projekt kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>The project could not be saved:

%1</source>
        <translation>Das Projekt konnte nicht gespeichert werden:

%1</translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation>Ungespeicherte Arbeit wiederherstellen</translation>
    </message>
    <message>
        <source>Add port</source>
        <translation>Port hinzufügen</translation>
    </message>
    <message>
        <source>Delete port</source>
        <translation>Port löschen</translation>
    </message>
    <message>
        <source>Move port</source>
        <translation>Port verschieben</translation>
    </message>
    <message>
        <source>Delete design region</source>
        <translation>Designbereich löschen</translation>
    </message>
    <message>
        <source>Move design region</source>
        <translation>Designbereich verschieben</translation>
    </message>
</context>
<context>
    <name>golightly::editor::GdsImportDialog</name>
    <message>
        <source>No polygons on the ticked layers</source>
        <translation>Keine Polygone auf den gewählten Lagen</translation>
    </message>
    <message>
        <source>Import GDS</source>
        <translation>GDS importieren</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>Zelle</translation>
    </message>
    <message>
        <source>Layer map...</source>
        <translation>Lagenzuordnung...</translation>
    </message>
    <message>
        <source>Name the layers from a KLayout .lyp or a gdsfactory YAML layer map</source>
        <translation>Lagen nach einer KLayout-.lyp- oder gdsfactory-YAML-Lagenzuordnung benennen</translation>
    </message>
    <message>
        <source>Layer/datatype</source>
        <translation>Lage/Datentyp</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>New layer</source>
        <translation>Neue Ebene</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>Material</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Layer map</source>
        <translation>Lagenzuordnung</translation>
    </message>
    <message>
        <source>Layer maps (*.lyp *.yaml *.yml);;All files (*)</source>
        <translation>Lagenzuordnungen (*.lyp *.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot read %1.</source>
        <translation>%1 kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>%1 is larger than %2: too large to embed in a project.</source>
        <translation>%1 ist größer als %2: zu groß, um es in ein Projekt einzubetten.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 holds no cell.</source>
        <translation>%1 enthält keine Zelle.</translation>
    </message>
    <message>
        <source>%1: %2 cells, database unit %3 nm</source>
        <translation>%1: %2 Zellen, Datenbankeinheit %3 nm</translation>
    </message>
    <message>
        <source>GDS %1</source>
        <translation>GDS %1</translation>
    </message>
    <message>
        <source>No GDS file is loaded.</source>
        <translation>Keine GDS-Datei geladen.</translation>
    </message>
    <message>
        <source>Layer %1 needs a name and a material.</source>
        <translation>Lage %1 braucht einen Namen und ein Material.</translation>
    </message>
    <message>
        <source>Tick at least one layer.</source>
        <translation>Mindestens eine Lage auswählen.</translation>
    </message>
    <message>
        <source>Import GDS %1</source>
        <translation>GDS %1 importieren</translation>
    </message>
    <message>
        <source>Export GDS</source>
        <translation>GDS exportieren</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>Into</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Layer name</source>
        <translation>Ebenenname</translation>
    </message>
    <message>
        <source>z (µm)</source>
        <translation>z (µm)</translation>
    </message>
    <message>
        <source>A new layer, or an existing layer (it keeps its z range, sidewall and material)</source>
        <translation>Eine neue Ebene oder eine vorhandene Ebene (diese behält ihren z-Bereich, ihre Seitenwand und ihr Material)</translation>
    </message>
    <message>
        <source>The z range of a new layer in a 3D project: z0, z1</source>
        <translation>Der z-Bereich einer neuen Ebene in einem 3D-Projekt: z0, z1</translation>
    </message>
    <message>
        <source>whole domain</source>
        <translation>ganzes Rechengebiet</translation>
    </message>
    <message>
        <source>Layer %1: the z range &quot;%2&quot; is not two numbers z0, z1 (µm) with z0 &lt; z1.</source>
        <translation>Lage %1: Der z-Bereich „%2“ besteht nicht aus zwei Zahlen z0, z1 (µm) mit z0 &lt; z1.</translation>
    </message>
    <message>
        <source>%1 polygons, %2 x %3 µm (dashed: the domain)</source>
        <translation>%1 Polygone, %2 x %3 µm  (gestrichelt: das Gebiet)</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>Platzierung</translation>
    </message>
    <message>
        <source>Centred in the domain</source>
        <translation>Im Gebiet zentriert</translation>
    </message>
    <message>
        <source>At an offset</source>
        <translation>Mit Versatz</translation>
    </message>
    <message>
        <source>Centre the cell&apos;s bounding box in the domain, or move the file&apos;s coordinates by an offset (0, 0 keeps them)</source>
        <translation>Die Begrenzungsbox der Zelle im Gebiet zentrieren oder die Koordinaten der Datei um einen Versatz verschieben (0, 0 behält sie bei)</translation>
    </message>
    <message>
        <source>Database unit</source>
        <translation>Datenbankeinheit</translation>
    </message>
    <message>
        <source>The length of one database unit: the file&apos;s UNITS record by default; change it only for a file written with a wrong unit (the shapes then keep the unit chosen)</source>
        <translation>Die Länge einer Datenbankeinheit: standardmäßig aus dem UNITS-Eintrag der Datei; nur für eine mit falscher Einheit geschriebene Datei ändern (die Formen behalten dann die gewählte Einheit)</translation>
    </message>
    <message>
        <source>cell %1 x %2 µm, moved by (%3, %4) µm</source>
        <translation>Zelle %1 x %2 µm, verschoben um (%3, %4) µm</translation>
    </message>
    <message>
        <source>Not imported: with %1 %2.</source>
        <translation>Nicht importiert: mit %1 %2.</translation>
    </message>
    <message>
        <source>Layer &quot;%1&quot; has no GDS layer. Write it on layer/datatype (kept with the layer, so that importing the file again fills this layer):</source>
        <translation>Ebene „%1“ hat keine GDS-Ebene. In Ebene/Datentyp schreiben (wird mit der Ebene gespeichert, damit ein erneuter Import diese Ebene füllt):</translation>
    </message>
    <message>
        <source>Layer &quot;%1&quot;: &quot;%2&quot; is not a GDS layer/datatype such as 3/0 (each 0 to 65535).</source>
        <translation>Ebene „%1“: „%2“ ist keine GDS-Ebene/Datentyp wie 3/0 (jeweils 0 bis 65535).</translation>
    </message>
    <message>
        <source>Set GDS layers</source>
        <translation>GDS-Ebenen festlegen</translation>
    </message>
</context>
<context>
    <name>golightly::editor::LayerStackDiagram</name>
    <message>
        <source>z µm</source>
        <translation>z µm</translation>
    </message>
    <message>
        <source> (solids)</source>
        <translation> (Körper)</translation>
    </message>
    <message>
        <source> (all z)</source>
        <translation> (alle z)</translation>
    </message>
    <message>
        <source>No layers</source>
        <translation>Keine Ebenen</translation>
    </message>
    <message>
        <source>selection z %1 .. %2</source>
        <translation>Auswahl z %1 .. %2</translation>
    </message>
    <message>
        <source>z %1 .. %2 µm</source>
        <translation>z %1 .. %2 µm</translation>
    </message>
    <message>
        <source>Set layer z range</source>
        <translation>z-Bereich der Ebene festlegen</translation>
    </message>
    <message>
        <source>selection z %1</source>
        <translation>Auswahl z %1</translation>
    </message>
    <message>
        <source>Set z extent</source>
        <translation>z-Ausdehnung festlegen</translation>
    </message>
</context>
<context>
    <name>golightly::editor::LayerStackDock</name>
    <message>
        <source>Layer stack</source>
        <translation>Ebenenstapel</translation>
    </message>
    <message>
        <source>Cross-section of the layer stack (z to scale). Drag a layer&apos;s top or bottom edge to change its z range, its body to move it.</source>
        <translation>Querschnitt des Ebenenstapels (z maßstabsgetreu). Die Ober- oder Unterkante einer Ebene ziehen, um ihren z-Bereich zu ändern, die Ebene selbst, um sie zu verschieben.</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Ebene</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>Material</translation>
    </message>
    <message>
        <source>z0 (µm)</source>
        <translation>z0 (µm)</translation>
    </message>
    <message>
        <source>z1 (µm)</source>
        <translation>z1 (µm)</translation>
    </message>
    <message>
        <source>Sidewall (°)</source>
        <translation>Seitenwand (°)</translation>
    </message>
    <message>
        <source>Add background layer</source>
        <translation>Hintergrundebene hinzufügen</translation>
    </message>
    <message>
        <source>A substrate or cladding: the current layer&apos;s material over the whole xy domain, from z = 0 to half the domain height (edit z0, z1 below)</source>
        <translation>Ein Substrat oder eine Mantelschicht: das Material der aktuellen Ebene über das ganze Rechengebiet in xy, von z = 0 bis zur halben Höhe des Rechengebiets (z0, z1 unten bearbeiten)</translation>
    </message>
    <message>
        <source>Set layer z range</source>
        <translation>z-Bereich der Ebene festlegen</translation>
    </message>
    <message>
        <source>Set sidewall angle</source>
        <translation>Seitenwandwinkel festlegen</translation>
    </message>
    <message>
        <source>Set layer material</source>
        <translation>Ebenenmaterial festlegen</translation>
    </message>
    <message>
        <source>background %1</source>
        <translation>Hintergrund %1</translation>
    </message>
    <message>
        <source>air</source>
        <translation>Luft</translation>
    </message>
    <message>
        <source>Spheres and boxes carry their own z (Properties dock); the layer&apos;s range does not apply</source>
        <translation>Kugeln und Quader haben ihr eigenes z (Eigenschaften-Fenster); der z-Bereich der Ebene gilt für sie nicht</translation>
    </message>
    <message>
        <source>No z range: the layer spans the whole domain in z; type a value to set one</source>
        <translation>Kein z-Bereich: Die Ebene reicht in z über das ganze Rechengebiet; einen Wert eingeben, um einen festzulegen</translation>
    </message>
    <message>
        <source>3D: the layers are extruded over [z0, z1]; a positive sidewall angle narrows them upwards.</source>
        <translation>3D: Die Ebenen werden über [z0, z1] extrudiert; ein positiver Seitenwandwinkel verjüngt sie nach oben.</translation>
    </message>
    <message>
        <source>2D project: z ranges apply when you switch to 3D (Run setup &gt; Dimensions).</source>
        <translation>2D-Projekt: Die z-Bereiche gelten, sobald Sie auf 3D umschalten (Simulation &gt; Dimensionen).</translation>
    </message>
    <message>
        <source>GDS layer</source>
        <translation>GDS-Lage</translation>
    </message>
    <message>
        <source>GDSII layer/datatype the layer&apos;s shapes are exported to (File &gt; Export GDS), e.g. 1/0; empty: none</source>
        <translation>GDSII-Lage/Datentyp, in die die Formen der Ebene exportiert werden (Datei &gt; GDS exportieren), z. B. 1/0; leer: keine</translation>
    </message>
    <message>
        <source>Set GDS layer</source>
        <translation>GDS-Lage festlegen</translation>
    </message>
    <message>
        <source>No GDS layer: an export writes this layer on layer %1, datatype 0</source>
        <translation>Keine GDS-Lage: Ein Export schreibt diese Ebene auf Lage %1, Datentyp 0</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <source>must be a GDS layer/datatype such as 1/0 (numbers 0 to 65535), or empty</source>
        <translation>muss eine GDS-Lage/Datentyp wie 1/0 sein (Zahlen 0 bis 65535) oder leer</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>muss eine Zahl sein</translation>
    </message>
    <message>
        <source>must be less than z1 (%1 µm)</source>
        <translation>muss kleiner als z1 (%1 µm) sein</translation>
    </message>
    <message>
        <source>must be greater than z0 (%1 µm)</source>
        <translation>muss größer als z0 (%1 µm) sein</translation>
    </message>
    <message>
        <source>must be between -90 and 90 degrees (not included)</source>
        <translation>muss zwischen -90 und 90 Grad liegen (ausschließlich)</translation>
    </message>
    <message>
        <source>z0</source>
        <translation>z0</translation>
    </message>
    <message>
        <source>z1</source>
        <translation>z1</translation>
    </message>
    <message>
        <source>Sidewall</source>
        <translation>Seitenwand</translation>
    </message>
    <message>
        <source>Layer stack: layer &quot;%1&quot;: %2: %3 (entered %4)</source>
        <translation>Ebenenstapel: Ebene „%1“: %2: %3 (eingegeben %4)</translation>
    </message>
</context>
<context>
    <name>golightly::editor::LayersDock</name>
    <message>
        <source>Layers</source>
        <translation>Ebenen</translation>
    </message>
    <message>
        <source>Layers, topmost first: a layer wins where it overlaps the ones below it.
Check box: show/hide. Double-click: rename. Drag: reorder.</source>
        <translation>Ebenen, oberste zuerst: Eine Ebene hat Vorrang, wo sie darunterliegende überlappt.
Kontrollkästchen: ein-/ausblenden. Doppelklick: umbenennen. Ziehen: neu anordnen.</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Add a layer above the current one</source>
        <translation>Eine Ebene über der aktuellen hinzufügen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the current layer</source>
        <translation>Die aktuelle Ebene löschen</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Hoch</translation>
    </message>
    <message>
        <source>Move the current layer up (drawn later, wins overlaps)</source>
        <translation>Aktuelle Ebene nach oben verschieben (später gezeichnet, hat bei Überlappung Vorrang)</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Runter</translation>
    </message>
    <message>
        <source>Move the current layer down</source>
        <translation>Aktuelle Ebene nach unten verschieben</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>Sperren</translation>
    </message>
    <message>
        <source>Lock or unlock the current layer</source>
        <translation>Aktuelle Ebene sperren oder entsperren</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>Material</translation>
    </message>
    <message>
        <source>Limit z range</source>
        <translation>z-Bereich begrenzen</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>z</source>
        <translation>z</translation>
    </message>
    <message>
        <source>Reference run only</source>
        <translation>Nur Referenzlauf</translation>
    </message>
    <message>
        <source>Left out of the main run; used by the normalization run</source>
        <translation>Im Hauptlauf weggelassen; vom Normierungslauf verwendet</translation>
    </message>
    <message>
        <source>(reference)</source>
        <translation>(Referenz)</translation>
    </message>
    <message>
        <source>Rename layer</source>
        <translation>Ebene umbenennen</translation>
    </message>
    <message>
        <source>Show layer</source>
        <translation>Ebene einblenden</translation>
    </message>
    <message>
        <source>Hide layer</source>
        <translation>Ebene ausblenden</translation>
    </message>
    <message>
        <source>Set layer material</source>
        <translation>Ebenenmaterial festlegen</translation>
    </message>
    <message>
        <source>Set layer z range</source>
        <translation>z-Bereich der Ebene festlegen</translation>
    </message>
    <message>
        <source>Set reference-only</source>
        <translation>Nur-Referenz festlegen</translation>
    </message>
    <message>
        <source>  (reference)</source>
        <translation>  (Referenz)</translation>
    </message>
    <message>
        <source>Material: %1</source>
        <translation>Material: %1</translation>
    </message>
    <message>
        <source> (locked)</source>
        <translation> (gesperrt)</translation>
    </message>
    <message>
        <source>air (eps 1)</source>
        <translation>Luft (eps 1)</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>Ebene %1</translation>
    </message>
    <message>
        <source>Add layer</source>
        <translation>Ebene hinzufügen</translation>
    </message>
    <message>
        <source>Delete layer</source>
        <translation>Ebene löschen</translation>
    </message>
    <message>
        <source>Reorder layers</source>
        <translation>Ebenen neu anordnen</translation>
    </message>
    <message>
        <source>Lock layer</source>
        <translation>Ebene sperren</translation>
    </message>
    <message>
        <source>Unlock layer</source>
        <translation>Ebene entsperren</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MaterialEditorDialog</name>
    <message>
        <source>High-frequency permittivity eps_inf (&gt;= 1 keeps the vacuum Courant limit)</source>
        <translation>Hochfrequenz-Permittivität eps_inf (&gt;= 1 erhält die Courant-Grenze des Vakuums)</translation>
    </message>
    <message>
        <source>Static conductivity: adds i sigma / (eps0 w) to eps</source>
        <translation>Statische Leitfähigkeit: addiert i sigma / (eps0 w) zu eps</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>eps_inf</source>
        <translation>eps_inf</translation>
    </message>
    <message>
        <source>Conductivity (S/m)</source>
        <translation>Leitfähigkeit (S/m)</translation>
    </message>
    <message>
        <source>rad/s</source>
        <translation>rad/s</translation>
    </message>
    <message>
        <source>eV (hbar omega)</source>
        <translation>eV (hbar omega)</translation>
    </message>
    <message>
        <source>THz (omega / 2 pi)</source>
        <translation>THz (omega / 2 pi)</translation>
    </message>
    <message>
        <source>Display unit of the pole frequencies; the project stores rad/s</source>
        <translation>Anzeigeeinheit der Polfrequenzen; das Projekt speichert rad/s</translation>
    </message>
    <message>
        <source>Frequency unit</source>
        <translation>Frequenzeinheit</translation>
    </message>
    <message>
        <source>Poles: eps(w) = eps_inf + i sigma/(eps0 w) + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma)</source>
        <translation>Pole: eps(w) = eps_inf + i sigma/(eps0 w) + Summe omega_p^2 / (omega_0^2 - w^2 - i w gamma)</translation>
    </message>
    <message>
        <source>Kind: drude (omega_0 = 0) or lorentz. Frequencies in the selected unit.</source>
        <translation>Art: drude (omega_0 = 0) oder lorentz. Frequenzen in der gewählten Einheit.</translation>
    </message>
    <message>
        <source>Add pole</source>
        <translation>Pol hinzufügen</translation>
    </message>
    <message>
        <source>Remove pole</source>
        <translation>Pol entfernen</translation>
    </message>
    <message>
        <source>Fit to data...</source>
        <translation>An Daten anpassen...</translation>
    </message>
    <message>
        <source>Save to personal library</source>
        <translation>In persönliche Bibliothek speichern</translation>
    </message>
    <message>
        <source>Re eps, Im eps</source>
        <translation>Re eps, Im eps</translation>
    </message>
    <message>
        <source>n, k</source>
        <translation>n, k</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Material (removed)</source>
        <translation>Material (entfernt)</translation>
    </message>
    <message>
        <source>Material &quot;%1&quot;</source>
        <translation>Material „%1“</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>omega_p (%1)</source>
        <translation>omega_p (%1)</translation>
    </message>
    <message>
        <source>omega_0 (%1)</source>
        <translation>omega_0 (%1)</translation>
    </message>
    <message>
        <source>gamma (%1)</source>
        <translation>gamma (%1)</translation>
    </message>
    <message>
        <source>%1 - %2 µm</source>
        <translation>%1 – %2 µm</translation>
    </message>
    <message>
        <source>Material id</source>
        <translation>Material-ID</translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is empty or already used.</source>
        <translation>Die ID „%1“ ist leer oder bereits vergeben.</translation>
    </message>
    <message>
        <source>Rename material</source>
        <translation>Material umbenennen</translation>
    </message>
    <message>
        <source>Edit eps_inf</source>
        <translation>eps_inf bearbeiten</translation>
    </message>
    <message>
        <source>Edit conductivity</source>
        <translation>Leitfähigkeit bearbeiten</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>Material</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid value here.</source>
        <translation>„%1“ ist hier kein gültiger Wert.</translation>
    </message>
    <message>
        <source>Pole</source>
        <translation>Pol</translation>
    </message>
    <message>
        <source>Edit pole</source>
        <translation>Pol bearbeiten</translation>
    </message>
    <message>
        <source>Fit poles</source>
        <translation>Pole anpassen</translation>
    </message>
    <message>
        <source>Personal library</source>
        <translation>Persönliche Bibliothek</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MaterialLibraryDialog</name>
    <message>
        <source>Add material from library</source>
        <translation>Material aus der Bibliothek hinzufügen</translation>
    </message>
    <message>
        <source>(personal)</source>
        <translation>(persönlich)</translation>
    </message>
    <message>
        <source>%1 poles. Source: %2</source>
        <translation>%1 Pole. Quelle: %2</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>nicht angegeben</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MaterialsDock</name>
    <message>
        <source>Materials</source>
        <translation>Materialien</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>eps_inf</source>
        <translation>eps_inf</translation>
    </message>
    <message>
        <source>sigma (S/m)</source>
        <translation>sigma (S/m)</translation>
    </message>
    <message>
        <source>Poles</source>
        <translation>Pole</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>Farbe</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>omega_p (rad/s)</source>
        <translation>omega_p (rad/s)</translation>
    </message>
    <message>
        <source>omega_0 (rad/s)</source>
        <translation>omega_0 (rad/s)</translation>
    </message>
    <message>
        <source>gamma (rad/s)</source>
        <translation>gamma (rad/s)</translation>
    </message>
    <message>
        <source>eps(w) = eps_inf + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma); omega_0 = 0 for Drude poles.
Kind: type drude or lorentz.</source>
        <translation>eps(w) = eps_inf + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma); omega_0 = 0 für Drude-Pole.
Art: drude oder lorentz eingeben.</translation>
    </message>
    <message>
        <source>Add pole</source>
        <translation>Pol hinzufügen</translation>
    </message>
    <message>
        <source>Remove pole</source>
        <translation>Pol entfernen</translation>
    </message>
    <message>
        <source>Material colour</source>
        <translation>Materialfarbe</translation>
    </message>
    <message>
        <source>Set material colour</source>
        <translation>Materialfarbe festlegen</translation>
    </message>
    <message>
        <source>Double-click to choose the colour</source>
        <translation>Doppelklicken, um die Farbe zu wählen</translation>
    </message>
    <message>
        <source>Dispersion poles of &quot;%1&quot;</source>
        <translation>Dispersionspole von „%1“</translation>
    </message>
    <message>
        <source>Dispersion poles (select a material)</source>
        <translation>Dispersionspole (Material auswählen)</translation>
    </message>
    <message>
        <source>Pole</source>
        <translation>Pol</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid value here.</source>
        <translation>„%1“ ist hier kein gültiger Wert.</translation>
    </message>
    <message>
        <source>Edit pole</source>
        <translation>Pol bearbeiten</translation>
    </message>
    <message>
        <source>Material id</source>
        <translation>Material-ID</translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is empty or already used.</source>
        <translation>Die ID „%1“ ist leer oder bereits vergeben.</translation>
    </message>
    <message>
        <source>Rename material</source>
        <translation>Material umbenennen</translation>
    </message>
    <message>
        <source>Edit eps_inf</source>
        <translation>eps_inf bearbeiten</translation>
    </message>
    <message>
        <source>Edit conductivity</source>
        <translation>Leitfähigkeit bearbeiten</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>Material</translation>
    </message>
    <message>
        <source>New material</source>
        <translation>Neues Material</translation>
    </message>
    <message>
        <source>Add material</source>
        <translation>Material hinzufügen</translation>
    </message>
    <message>
        <source>Delete material</source>
        <translation>Material löschen</translation>
    </message>
    <message>
        <source>The material &quot;%1&quot; is used by a layer or as the background.</source>
        <translation>Das Material „%1“ wird von einer Ebene oder als Hintergrund verwendet.</translation>
    </message>
    <message>
        <source>Edit...</source>
        <translation>Bearbeiten...</translation>
    </message>
    <message>
        <source>Material editor: poles in rad/s, eV or THz, plot of eps, fit to measured n,k</source>
        <translation>Materialeditor: Pole in rad/s, eV oder THz, Diagramm von eps, Anpassung an gemessene n,k</translation>
    </message>
    <message>
        <source>Add from library...</source>
        <translation>Aus Bibliothek hinzufügen...</translation>
    </message>
    <message>
        <source>Dispersion poles: double-click to open the material editor</source>
        <translation>Dispersionspole: Doppelklick öffnet den Materialeditor</translation>
    </message>
    <message>
        <source>Material library</source>
        <translation>Materialbibliothek</translation>
    </message>
    <message>
        <source>The project already has a material &quot;%1&quot;. Id of the new copy:</source>
        <translation>Das Projekt hat bereits ein Material „%1“. ID der neuen Kopie:</translation>
    </message>
    <message>
        <source>The id must not be empty. Id of the new copy:</source>
        <translation>Die ID darf nicht leer sein. ID der neuen Kopie:</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is taken too. Id of the new copy:</source>
        <translation>„%1“ ist ebenfalls vergeben. ID der neuen Kopie:</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MonitorTool</name>
    <message>
        <source>Flux monitor</source>
        <translation>Flussmonitor</translation>
    </message>
    <message>
        <source>Time probe</source>
        <translation>Zeitsonde</translation>
    </message>
    <message>
        <source>DFT field region</source>
        <translation>DFT-Feldbereich</translation>
    </message>
    <message>
        <source>Mode monitor</source>
        <translation>Modenmonitor</translation>
    </message>
</context>
<context>
    <name>golightly::editor::ParametersDock</name>
    <message>
        <source>layer &quot;%1&quot;, shape %2: %3</source>
        <translation>Ebene „%1“, Form %2: %3</translation>
    </message>
    <message>
        <source>layer &quot;%1&quot;: %2</source>
        <translation>Ebene „%1“: %2</translation>
    </message>
    <message>
        <source>source &quot;%1&quot;: %2</source>
        <translation>Quelle „%1“: %2</translation>
    </message>
    <message>
        <source>monitor &quot;%1&quot;: %2</source>
        <translation>Monitor „%1“: %2</translation>
    </message>
    <message>
        <source>port &quot;%1&quot;: %2</source>
        <translation>Port „%1“: %2</translation>
    </message>
    <message>
        <source>parameter %1</source>
        <translation>Parameter %1</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Expression</source>
        <translation>Ausdruck</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Used by</source>
        <translation>Verwendet von</translation>
    </message>
    <message>
        <source>A number (µm, fs or no unit) or an expression over the parameters above, e.g. 250 nm or 2 * w</source>
        <translation>Eine Zahl (µm, fs oder ohne Einheit) oder ein Ausdruck über die Parameter darüber, z. B. 250 nm oder 2 * w</translation>
    </message>
    <message>
        <source>How many fields and parameters use it (the list is below)</source>
        <translation>Wie viele Felder und Parameter ihn verwenden (die Liste steht darunter)</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add a parameter (then type its name and value in the table)</source>
        <translation>Einen Parameter hinzufügen (dann Namen und Wert in der Tabelle eingeben)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selected parameter; its uses get its value</source>
        <translation>Den gewählten Parameter löschen; seine Verwendungen erhalten seinen Wert</translation>
    </message>
    <message>
        <source>No parameters. Add one, then type its name in any numeric field of Properties or Run setup, e.g. 2 * w + 10nm.</source>
        <translation>Keine Parameter. Fügen Sie einen hinzu und geben Sie seinen Namen in ein beliebiges Zahlenfeld von Eigenschaften oder Laufeinstellungen ein, z. B. 2 * w + 10nm.</translation>
    </message>
    <message>
        <source>%1 is not used.</source>
        <translation>%1 wird nicht verwendet.</translation>
    </message>
    <message>
        <source>%1 is used by:
%2</source>
        <translation>%1 wird verwendet von:
%2</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid parameter name (letters, digits and _, not starting with a digit; not a unit, pi or a function name)</source>
        <translation>„%1“ ist kein gültiger Parametername (Buchstaben, Ziffern und _, nicht mit einer Ziffer beginnend; keine Einheit, nicht pi und kein Funktionsname)</translation>
    </message>
    <message>
        <source>the project has a parameter %1 already</source>
        <translation>das Projekt hat bereits einen Parameter %1</translation>
    </message>
    <message>
        <source>Add parameter %1</source>
        <translation>Parameter %1 hinzufügen</translation>
    </message>
    <message>
        <source>the project has no parameter %1</source>
        <translation>das Projekt hat keinen Parameter %1</translation>
    </message>
    <message>
        <source>Rename parameter %1 to %2</source>
        <translation>Parameter %1 in %2 umbenennen</translation>
    </message>
    <message>
        <source>the value of %1 is empty</source>
        <translation>der Wert von %1 ist leer</translation>
    </message>
    <message>
        <source>Set parameter %1</source>
        <translation>Parameter %1 festlegen</translation>
    </message>
    <message>
        <source>Delete parameter</source>
        <translation>Parameter löschen</translation>
    </message>
    <message>
        <source>%1 is used by:
%2

Delete it and put its value (%3) in its place?</source>
        <translation>%1 wird verwendet von:
%2

Löschen und an seiner Stelle seinen Wert (%3) einsetzen?</translation>
    </message>
    <message>
        <source>Replace uses by the value</source>
        <translation>Verwendungen durch den Wert ersetzen</translation>
    </message>
    <message>
        <source>Delete parameter %1</source>
        <translation>Parameter %1 löschen</translation>
    </message>
    <message>
        <source>design: shape parameter [%1, %2]</source>
        <translation>Design: Formparameter [%1, %2]</translation>
    </message>
    <message>
        <source>The design stops optimizing it (its shape parameter is removed; without shape parameters the design section goes).</source>
        <translation>Das Design optimiert ihn dann nicht mehr (sein Formparameter wird entfernt; ohne Formparameter entfällt der Design-Abschnitt).</translation>
    </message>
</context>
<context>
    <name>golightly::editor::PointsTool</name>
    <message>
        <source>Draw polygon</source>
        <translation>Polygon zeichnen</translation>
    </message>
    <message>
        <source>Draw waveguide path</source>
        <translation>Wellenleiterpfad zeichnen</translation>
    </message>
    <message>
        <source>Polygon</source>
        <translation>Polygon</translation>
    </message>
    <message>
        <source>Waveguide path</source>
        <translation>Wellenleiterpfad</translation>
    </message>
    <message>
        <source>Waveguide path: click to place the first point (width and bend radius in the tool options)</source>
        <translation>Wellenleiterpfad: klicken, um den ersten Punkt zu setzen (Breite und Biegeradius in den Werkzeugoptionen)</translation>
    </message>
    <message>
        <source>Polygon: click to place the first corner</source>
        <translation>Polygon: klicken, um die erste Ecke zu setzen</translation>
    </message>
    <message>
        <source>Click the next point; Backspace removes the last one, Esc cancels</source>
        <translation>Den nächsten Punkt klicken; Rücktaste entfernt den letzten, Esc bricht ab</translation>
    </message>
    <message numerus="yes">
        <source>%n corner(s) placed: click the next one; Backspace removes the last one, Esc cancels</source>
        <translation>
            <numerusform>%n Ecke gesetzt: die nächste klicken; Rücktaste entfernt die letzte, Esc bricht ab</numerusform>
            <numerusform>%n Ecken gesetzt: die nächste klicken; Rücktaste entfernt die letzte, Esc bricht ab</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n point(s): click to go on; double-click, Enter or right-click finishes; Backspace removes the last point, Esc cancels</source>
        <translation>
            <numerusform>%n Punkt: klicken, um fortzufahren; Doppelklick, Eingabe oder Rechtsklick beendet; Rücktaste entfernt den letzten Punkt, Esc bricht ab</numerusform>
            <numerusform>%n Punkte: klicken, um fortzufahren; Doppelklick, Eingabe oder Rechtsklick beendet; Rücktaste entfernt den letzten Punkt, Esc bricht ab</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n corner(s): click to go on; double-click, Enter or right-click closes the polygon; Backspace removes the last corner, Esc cancels</source>
        <translation>
            <numerusform>%n Ecke: klicken, um fortzufahren; Doppelklick, Eingabe oder Rechtsklick schließt das Polygon; Rücktaste entfernt die letzte Ecke, Esc bricht ab</numerusform>
            <numerusform>%n Ecken: klicken, um fortzufahren; Doppelklick, Eingabe oder Rechtsklick schließt das Polygon; Rücktaste entfernt die letzte Ecke, Esc bricht ab</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>golightly::editor::PoleFitDialog</name>
    <message>
        <source>Fit poles to measured data</source>
        <translation>Pole an Messdaten anpassen</translation>
    </message>
    <message>
        <source>Import CSV...</source>
        <translation>CSV importieren...</translation>
    </message>
    <message>
        <source>refractiveindex.info export: wavelength (µm), n, k; one table or an n block and a k block</source>
        <translation>refractiveindex.info-Export: Wellenlänge (µm), n, k; eine Tabelle oder ein n-Block und ein k-Block</translation>
    </message>
    <message>
        <source>No data</source>
        <translation>Keine Daten</translation>
    </message>
    <message>
        <source>One Drude pole (metals)</source>
        <translation>Ein Drude-Pol (Metalle)</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source>Re eps, Im eps</source>
        <translation>Re eps, Im eps</translation>
    </message>
    <message>
        <source>n, k</source>
        <translation>n, k</translation>
    </message>
    <message>
        <source>Poles</source>
        <translation>Pole</translation>
    </message>
    <message>
        <source>Band from</source>
        <translation>Band von</translation>
    </message>
    <message>
        <source>Band to</source>
        <translation>Band bis</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Anpassen</translation>
    </message>
    <message>
        <source>Replace eps_inf and the poles of the material with the fit</source>
        <translation>eps_inf und die Pole des Materials durch die Anpassung ersetzen</translation>
    </message>
    <message>
        <source>Import optical constants</source>
        <translation>Optische Konstanten importieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt);;All files (*)</source>
        <translation>CSV-Dateien (*.csv *.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot read the data: %1</source>
        <translation>Die Daten können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1: %2 points, %3 - %4 µm%5</source>
        <translation>%1: %2 Punkte, %3 – %4 µm%5</translation>
    </message>
    <message>
        <source> (no k: lossless)</source>
        <translation> (kein k: verlustfrei)</translation>
    </message>
    <message>
        <source>Choose the poles and the band, then Fit.</source>
        <translation>Pole und Band wählen, dann Anpassen.</translation>
    </message>
    <message>
        <source>Fitting...</source>
        <translation>Anpassung läuft...</translation>
    </message>
    <message>
        <source>The fit failed: %1</source>
        <translation>Die Anpassung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>eps_inf = %1, %2 poles, %3 points.
RMS relative error of eps: %4 (max %5).
RMS = sqrt(mean |eps_fit - eps_data|^2 / |eps_data|^2).</source>
        <translation>eps_inf = %1, %2 Pole, %3 Punkte.
RMS des relativen Fehlers von eps: %4 (max. %5).
RMS = sqrt(Mittel |eps_fit - eps_data|^2 / |eps_data|^2).</translation>
    </message>
    <message>
        <source>n (fit)</source>
        <translation>n (Anpassung)</translation>
    </message>
    <message>
        <source>Re eps (fit)</source>
        <translation>Re eps (Anpassung)</translation>
    </message>
    <message>
        <source>k (fit)</source>
        <translation>k (Anpassung)</translation>
    </message>
    <message>
        <source>Im eps (fit)</source>
        <translation>Im eps (Anpassung)</translation>
    </message>
</context>
<context>
    <name>golightly::editor::PortTool</name>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Drag a line across the waveguide to place a port (S-parameters); direction and modes in Properties</source>
        <translation>Eine Linie quer über den Wellenleiter ziehen, um einen Port zu setzen (S-Parameter); Richtung und Moden in den Eigenschaften</translation>
    </message>
</context>
<context>
    <name>golightly::editor::PropertiesDock</name>
    <message>
        <source>Properties</source>
        <translation>Eigenschaften</translation>
    </message>
    <message>
        <source>Edit shape</source>
        <translation>Form bearbeiten</translation>
    </message>
    <message>
        <source>Edit source</source>
        <translation>Quelle bearbeiten</translation>
    </message>
    <message>
        <source>Edit monitor</source>
        <translation>Monitor bearbeiten</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source> x</source>
        <translation> x</translation>
    </message>
    <message>
        <source> y</source>
        <translation> y</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Ebene</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Max</translation>
    </message>
    <message>
        <source>Rotation</source>
        <translation>Drehung</translation>
    </message>
    <message>
        <source> deg</source>
        <translation> °</translation>
    </message>
    <message>
        <source>Centre</source>
        <translation>Mittelpunkt</translation>
    </message>
    <message>
        <source>Radius x</source>
        <translation>Radius x</translation>
    </message>
    <message>
        <source>Radius y</source>
        <translation>Radius y</translation>
    </message>
    <message>
        <source>Inner radius</source>
        <translation>Innenradius</translation>
    </message>
    <message>
        <source>Outer radius</source>
        <translation>Außenradius</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <source>Bend radius</source>
        <translation>Biegeradius</translation>
    </message>
    <message>
        <source>Point %1</source>
        <translation>Punkt %1</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Ursprung</translation>
    </message>
    <message>
        <source>Pixel size</source>
        <translation>Pixelgröße</translation>
    </message>
    <message>
        <source>Pixels</source>
        <translation>Pixel</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>point</source>
        <translation>Punkt</translation>
    </message>
    <message>
        <source>line</source>
        <translation>Linie</translation>
    </message>
    <message>
        <source>region</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>At</source>
        <translation>Bei</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Bis</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>gleichförmig</translation>
    </message>
    <message>
        <source>gaussian</source>
        <translation>gaußförmig</translation>
    </message>
    <message>
        <source>mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>Richtung</translation>
    </message>
    <message>
        <source>Waist</source>
        <translation>Strahltaille</translation>
    </message>
    <message>
        <source>Mode index</source>
        <translation>Modenindex</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>Komponente</translation>
    </message>
    <message>
        <source>Amplitude</source>
        <translation>Amplitude</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Waveform</source>
        <translation>Signalform</translation>
    </message>
    <message>
        <source>Gaussian pulse</source>
        <translation>Gauß-Puls</translation>
    </message>
    <message>
        <source>CW</source>
        <translation>Dauerstrich (CW)</translation>
    </message>
    <message>
        <source>Centre wavelength</source>
        <translation>Mittenwellenlänge</translation>
    </message>
    <message>
        <source>Wavelength span</source>
        <translation>Wellenlängenbereich</translation>
    </message>
    <message>
        <source>Wavelength</source>
        <translation>Wellenlänge</translation>
    </message>
    <message>
        <source>flux line</source>
        <translation>Flusslinie</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>time probe</source>
        <translation>Zeitsonde</translation>
    </message>
    <message>
        <source>flux box</source>
        <translation>Flussbox</translation>
    </message>
    <message>
        <source>DFT field</source>
        <translation>DFT-Feld</translation>
    </message>
    <message>
        <source>Wavelengths (µm)</source>
        <translation>Wellenlängen (µm)</translation>
    </message>
    <message>
        <source>Select a shape, source or monitor on the canvas to edit it here.</source>
        <translation>Wählen Sie eine Form, Quelle oder einen Monitor auf der Zeichenfläche aus, um sie hier zu bearbeiten.</translation>
    </message>
    <message>
        <source>transmission</source>
        <translation>Transmission</translation>
    </message>
    <message>
        <source>reflection</source>
        <translation>Reflexion</translation>
    </message>
    <message>
        <source>flux</source>
        <translation>Fluss</translation>
    </message>
    <message>
        <source>rectangle</source>
        <translation>Rechteck</translation>
    </message>
    <message>
        <source>polygon</source>
        <translation>Polygon</translation>
    </message>
    <message>
        <source>ellipse</source>
        <translation>Ellipse</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>Ring</translation>
    </message>
    <message>
        <source>waveguide path</source>
        <translation>Wellenleiterpfad</translation>
    </message>
    <message>
        <source>bitmap</source>
        <translation>Bitmap</translation>
    </message>
    <message>
        <source>STEP solid</source>
        <translation>STEP-Körper</translation>
    </message>
    <message>
        <source>Solids</source>
        <translation>Körper</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Unit scale</source>
        <translation>Einheitenmaßstab</translation>
    </message>
    <message>
        <source> µm/unit</source>
        <translation> µm/Einheit</translation>
    </message>
    <message>
        <source>Translate %1</source>
        <translation>Verschiebung %1</translation>
    </message>
    <message>
        <source>Rotate %1</source>
        <translation>Drehung %1</translation>
    </message>
    <message>
        <source>Re-import...</source>
        <translation>Neu importieren...</translation>
    </message>
    <message>
        <source>Replace the embedded STEP file, keeping placement, layers and materials</source>
        <translation>Die eingebettete STEP-Datei ersetzen; Platzierung, Ebenen und Materialien bleiben erhalten</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <source>no field &quot;%1&quot;</source>
        <translation>kein Feld „%1“</translation>
    </message>
    <message>
        <source>%1: %2: %3 (entered %4)</source>
        <translation>%1: %2: %3 (eingegeben %4)</translation>
    </message>
    <message>
        <source>must be greater than 0</source>
        <translation>muss größer als 0 sein</translation>
    </message>
    <message>
        <source>%1 in layer &quot;%2&quot;</source>
        <translation>%1 in Ebene „%2“</translation>
    </message>
    <message>
        <source>must be 0 or more</source>
        <translation>muss 0 oder größer sein</translation>
    </message>
    <message>
        <source>must be less than the outer radius (%1)</source>
        <translation>muss kleiner als der Außenradius (%1) sein</translation>
    </message>
    <message>
        <source>must be greater than the inner radius (%1)</source>
        <translation>muss größer als der Innenradius (%1) sein</translation>
    </message>
    <message>
        <source>must be 0 (sharp corners) or more</source>
        <translation>muss 0 (scharfe Ecken) oder größer sein</translation>
    </message>
    <message>
        <source>source &quot;%1&quot;</source>
        <translation>Quelle „%1“</translation>
    </message>
    <message>
        <source>must be less than twice the centre wavelength (%1)</source>
        <translation>muss kleiner als die doppelte Mittenwellenlänge (%1) sein</translation>
    </message>
    <message>
        <source>monitor &quot;%1&quot;</source>
        <translation>Monitor „%1“</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>Zelle</translation>
    </message>
    <message>
        <source>(top cell)</source>
        <translation>(oberste Zelle)</translation>
    </message>
    <message>
        <source>GDS layer</source>
        <translation>GDS-Lage</translation>
    </message>
    <message>
        <source> z</source>
        <translation> z</translation>
    </message>
    <message>
        <source>sphere</source>
        <translation>Kugel</translation>
    </message>
    <message>
        <source>box</source>
        <translation>Quader</translation>
    </message>
    <message>
        <source>Radius</source>
        <translation>Radius</translation>
    </message>
    <message>
        <source>plane</source>
        <translation>Fläche</translation>
    </message>
    <message>
        <source>TF/SF box</source>
        <translation>TF/SF-Box</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>must be 0 (the normal) or more</source>
        <translation>muss 0 (Normalenrichtung) oder größer sein</translation>
    </message>
    <message>
        <source>two-way</source>
        <translation>beidseitig</translation>
    </message>
    <message>
        <source>flux plane</source>
        <translation>Flussfläche</translation>
    </message>
    <message>
        <source>flux (net outward)</source>
        <translation>Fluss (netto nach außen)</translation>
    </message>
    <message>
        <source>absorption cross-section</source>
        <translation>Absorptionsquerschnitt</translation>
    </message>
    <message>
        <source>scattering cross-section</source>
        <translation>Streuquerschnitt</translation>
    </message>
    <message>
        <source>Edit port</source>
        <translation>Port bearbeiten</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>Normale</translation>
    </message>
    <message>
        <source>port &quot;%1&quot;</source>
        <translation>Port „%1“</translation>
    </message>
    <message>
        <source>port (plane)</source>
        <translation>Port (Fläche)</translation>
    </message>
    <message>
        <source>port (line)</source>
        <translation>Port (Linie)</translation>
    </message>
    <message>
        <source>Size x</source>
        <translation>Größe x</translation>
    </message>
    <message>
        <source>Size y</source>
        <translation>Größe y</translation>
    </message>
    <message>
        <source>Modes</source>
        <translation>Moden</translation>
    </message>
    <message>
        <source>mode (amplitudes)</source>
        <translation>Mode (Amplituden)</translation>
    </message>
    <message>
        <source>must be less than max %1 (%2)</source>
        <translation>muss kleiner als max %1 (%2) sein</translation>
    </message>
    <message>
        <source>must be greater than min %1 (%2)</source>
        <translation>muss größer als min %1 (%2) sein</translation>
    </message>
    <message>
        <source>must be a list of mode indices from 0 to 99, e.g. &quot;0&quot; or &quot;0, 1&quot; (0: the highest n_eff)</source>
        <translation>muss eine Liste von Modenindizes von 0 bis 99 sein, z. B. &quot;0&quot; oder &quot;0, 1&quot; (0: das höchste n_eff)</translation>
    </message>
    <message>
        <source>Target n_eff</source>
        <translation>Ziel-n_eff</translation>
    </message>
    <message>
        <source>must be greater than 0 (an effective index), or 0 for none (the highest-index modes)</source>
        <translation>muss größer als 0 sein (ein effektiver Index), oder 0 für keinen (die Moden mit dem höchsten Index)</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>Filter</translation>
    </message>
    <message>
        <source>none (all modes)</source>
        <translation>keiner (alle Moden)</translation>
    </message>
    <message>
        <source>TE (E along the wafer plane)</source>
        <translation>TE (E entlang der Waferebene)</translation>
    </message>
    <message>
        <source>TM</source>
        <translation>TM</translation>
    </message>
    <message>
        <source>must be 0 (straight) or larger than half the monitor&apos;s extent along %1 (%2 µm): the bend&apos;s centre must lie outside the monitor</source>
        <translation>muss 0 (gerade) oder größer als die halbe Ausdehnung des Monitors entlang %1 (%2 µm) sein: der Krümmungsmittelpunkt muss außerhalb des Monitors liegen</translation>
    </message>
    <message>
        <source>needs a monitor longer than %1 cells along %2 (it has %3): the bend&apos;s absorbing layers take %4 cells at each end</source>
        <translation>braucht einen Monitor mit mehr als %1 Zellen entlang %2 (er hat %3): die absorbierenden Schichten der Biegung belegen an jedem Ende %4 Zellen</translation>
    </message>
    <message>
        <source>Bend axis</source>
        <translation>Biegeachse</translation>
    </message>
    <message>
        <source>Remove expression</source>
        <translation>Ausdruck entfernen</translation>
    </message>
    <message>
        <source>this field sets more than one value of the project: it takes a number only</source>
        <translation>dieses Feld setzt mehr als einen Wert des Projekts: es nimmt nur eine Zahl</translation>
    </message>
    <message>
        <source>this field is stored in another unit than it shows: it takes a number only</source>
        <translation>dieses Feld wird in einer anderen Einheit gespeichert, als es zeigt: es nimmt nur eine Zahl</translation>
    </message>
    <message>
        <source>Set expression</source>
        <translation>Ausdruck festlegen</translation>
    </message>
    <message>
        <source>must leave a box wider than 0</source>
        <translation>muss einen Bereich breiter als 0 ergeben</translation>
    </message>
    <message>
        <source>the box must be a whole number of pixels (%1 um / %2 um = %3)</source>
        <translation>der Bereich muss eine ganze Zahl von Pixeln sein (%1 um / %2 um = %3)</translation>
    </message>
    <message>
        <source>design region &quot;%1&quot;</source>
        <translation>Designbereich „%1“</translation>
    </message>
    <message>
        <source>Rename design region</source>
        <translation>Designbereich umbenennen</translation>
    </message>
    <message>
        <source>design region (box)</source>
        <translation>Designbereich (Quader)</translation>
    </message>
    <message>
        <source>design region (rectangle)</source>
        <translation>Designbereich (Rechteck)</translation>
    </message>
    <message>
        <source>Min %1</source>
        <translation>Min %1</translation>
    </message>
    <message>
        <source>Edit design region</source>
        <translation>Designbereich bearbeiten</translation>
    </message>
    <message>
        <source>Max %1</source>
        <translation>Max %1</translation>
    </message>
    <message>
        <source>Pixel</source>
        <translation>Pixel</translation>
    </message>
    <message>
        <source>Edit design pixel</source>
        <translation>Designpixel bearbeiten</translation>
    </message>
    <message>
        <source>Material (rho = 0)</source>
        <translation>Material (rho = 0)</translation>
    </message>
    <message>
        <source>Material (rho = 1)</source>
        <translation>Material (rho = 1)</translation>
    </message>
    <message>
        <source>Edit design materials</source>
        <translation>Designmaterialien bearbeiten</translation>
    </message>
    <message>
        <source>Start density</source>
        <translation>Startdichte</translation>
    </message>
    <message>
        <source>Edit start density</source>
        <translation>Startdichte bearbeiten</translation>
    </message>
    <message>
        <source>must be in [0, 1]</source>
        <translation>muss in [0, 1] liegen</translation>
    </message>
    <message numerus="yes">
        <source>a list of %n value(s) (shown on the canvas)</source>
        <translation>
            <numerusform>eine Liste von %n Wert (auf der Zeichenfläche gezeigt)</numerusform>
            <numerusform>eine Liste von %n Werten (auf der Zeichenfläche gezeigt)</numerusform>
        </translation>
    </message>
    <message>
        <source>Reset density</source>
        <translation>Dichte zurücksetzen</translation>
    </message>
    <message>
        <source>keep the list</source>
        <translation>Liste behalten</translation>
    </message>
    <message>
        <source>uniform 0.5</source>
        <translation>gleichmäßig 0,5</translation>
    </message>
    <message>
        <source>file %1</source>
        <translation>Datei %1</translation>
    </message>
    <message>
        <source>Edit design filter</source>
        <translation>Designfilter bearbeiten</translation>
    </message>
    <message>
        <source>Filter radius</source>
        <translation>Filterradius</translation>
    </message>
    <message>
        <source>must be 0 (no filter) or more</source>
        <translation>muss 0 (kein Filter) oder mehr sein</translation>
    </message>
    <message>
        <source>Beta</source>
        <translation>Beta</translation>
    </message>
    <message>
        <source>Edit projection</source>
        <translation>Projektion bearbeiten</translation>
    </message>
    <message>
        <source>must be at most beta max (%1)</source>
        <translation>darf höchstens Beta max (%1) sein</translation>
    </message>
    <message>
        <source>Beta max</source>
        <translation>Beta max</translation>
    </message>
    <message>
        <source>must be at least beta (%1)</source>
        <translation>muss mindestens Beta (%1) sein</translation>
    </message>
    <message>
        <source>Beta every</source>
        <translation>Beta alle</translation>
    </message>
    <message>
        <source> iterations</source>
        <translation> Iterationen</translation>
    </message>
    <message>
        <source>must be a whole number, at least 1</source>
        <translation>muss eine ganze Zahl sein, mindestens 1</translation>
    </message>
    <message>
        <source>Minimum length</source>
        <translation>Mindestlänge</translation>
    </message>
    <message>
        <source>Edit minimum length</source>
        <translation>Mindestlänge bearbeiten</translation>
    </message>
    <message>
        <source>must be 0 (no constraint) or more</source>
        <translation>muss 0 (keine Nebenbedingung) oder mehr sein</translation>
    </message>
    <message>
        <source>needs a conic filter with a radius above 0</source>
        <translation>braucht einen konischen Filter mit einem Radius über 0</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielfunktion</translation>
    </message>
    <message>
        <source>in the Inverse Design dock (Run &gt; Optimize (adjoint))</source>
        <translation>im Dock Inverses Design (Ausführen &gt; Optimieren (adjungiert))</translation>
    </message>
    <message>
        <source>Fixed pixels</source>
        <translation>Feste Pixel</translation>
    </message>
    <message>
        <source>none (Design Region tool: Shift+drag inside the region for a fixed solid box, Ctrl+drag for a fixed void box)</source>
        <translation>keine (Werkzeug Designbereich: Umschalt+Ziehen im Bereich für eine feste Vollbox, Strg+Ziehen für eine feste Leerbox)</translation>
    </message>
    <message>
        <source>%1 solid, %2 void</source>
        <translation>%1 voll, %2 leer</translation>
    </message>
    <message>
        <source>Fixed box %1</source>
        <translation>Feste Box %1</translation>
    </message>
    <message>
        <source>solid (rho = 1)</source>
        <translation>voll (rho = 1)</translation>
    </message>
    <message>
        <source>void (rho = 0)</source>
        <translation>leer (rho = 0)</translation>
    </message>
    <message>
        <source>Edit fixed box</source>
        <translation>Feste Box bearbeiten</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Remove this fixed box (its pixels are optimized again)</source>
        <translation>Diese feste Box entfernen (ihre Pixel werden wieder optimiert)</translation>
    </message>
    <message>
        <source>Delete fixed box</source>
        <translation>Feste Box löschen</translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation>%1 %2 %3</translation>
    </message>
    <message>
        <source>min</source>
        <translation>min</translation>
    </message>
    <message>
        <source>max</source>
        <translation>max</translation>
    </message>
    <message>
        <source>must lie inside the design region (%1 .. %2 um)</source>
        <translation>muss im Designbereich liegen (%1 .. %2 µm)</translation>
    </message>
    <message>
        <source>must be below max (%1 um)</source>
        <translation>muss unter max liegen (%1 µm)</translation>
    </message>
    <message>
        <source>must exceed min (%1 um)</source>
        <translation>muss über min liegen (%1 µm)</translation>
    </message>
    <message>
        <source>&quot;inf&quot; needs the smoothed projection (the tanh projection has no gradient at beta = infinity): choose Projection &quot;smoothed&quot; first</source>
        <translation>&quot;inf&quot; braucht die geglättete Projektion (die tanh-Projektion hat bei Beta = unendlich keinen Gradienten): zuerst Projektion &quot;geglättet&quot; wählen</translation>
    </message>
    <message>
        <source>&quot;inf&quot; must be the last beta (entry %1 of %2)</source>
        <translation>&quot;inf&quot; muss das letzte Beta sein (Eintrag %1 von %2)</translation>
    </message>
    <message>
        <source>entry %1 (&quot;%2&quot;) is not a number or &quot;inf&quot;; e.g. 4, 8, 16, 32, inf</source>
        <translation>Eintrag %1 (&quot;%2&quot;) ist keine Zahl und nicht &quot;inf&quot;; z. B. 4, 8, 16, 32, inf</translation>
    </message>
    <message>
        <source>entry %1 (%2) must be greater than 0</source>
        <translation>Eintrag %1 (%2) muss größer als 0 sein</translation>
    </message>
    <message>
        <source>entry %1 (%2) must not be below the beta before it (%3)</source>
        <translation>Eintrag %1 (%2) darf nicht unter dem Beta davor liegen (%3)</translation>
    </message>
    <message>
        <source>Projection</source>
        <translation>Projektion</translation>
    </message>
    <message>
        <source>tanh</source>
        <translation>tanh</translation>
    </message>
    <message>
        <source>smoothed (subpixel)</source>
        <translation>geglättet (Subpixel)</translation>
    </message>
    <message>
        <source>tanh: the usual projection. smoothed: the subpixel-smoothed projection of Hammond et al. (2025), which keeps a gradient at any beta, so that the beta list may end with inf (a binary design). Choosing tanh drops a final inf from the beta list.</source>
        <translation>tanh: die übliche Projektion. geglättet: die subpixel-geglättete Projektion von Hammond et al. (2025), die bei jedem Beta einen Gradienten behält, so dass die Beta-Liste mit inf (einem binären Entwurf) enden darf. Die Wahl von tanh entfernt ein abschließendes inf aus der Beta-Liste.</translation>
    </message>
    <message>
        <source>Beta list</source>
        <translation>Beta-Liste</translation>
    </message>
    <message>
        <source>The beta schedule as a list, e.g. 4, 8, 16, 32, inf: each entry for Beta every iterations, the last one kept; inf (the binary design) only last and only with the smoothed projection. Empty: beta grows from Beta to Beta max instead (Beta and Beta max are not used with a list).</source>
        <translation>Der Beta-Zeitplan als Liste, z. B. 4, 8, 16, 32, inf: jeder Eintrag für &quot;Beta alle&quot; Iterationen, der letzte bleibt; inf (der binäre Entwurf) nur zuletzt und nur mit der geglätteten Projektion. Leer: Beta wächst stattdessen von Beta bis Beta max (mit einer Liste werden Beta und Beta max nicht verwendet).</translation>
    </message>
    <message>
        <source>e.g. 4, 8, 16, 32, inf (empty: Beta .. Beta max)</source>
        <translation>z. B. 4, 8, 16, 32, inf (leer: Beta .. Beta max)</translation>
    </message>
    <message>
        <source>must lie between 0 and the projection&apos;s eta (%1), found %2</source>
        <translation>muss zwischen 0 und dem eta der Projektion (%1) liegen, gefunden %2</translation>
    </message>
    <message>
        <source>must lie between the projection&apos;s eta (%1) and 1, found %2</source>
        <translation>muss zwischen dem eta der Projektion (%1) und 1 liegen, gefunden %2</translation>
    </message>
    <message>
        <source>dilated, intended and eroded designs</source>
        <translation>dilatiertes, beabsichtigtes und erodiertes Design</translation>
    </message>
    <message>
        <source>Robust design (Wang, Lazarov and Sigmund 2011): each iteration also projects the filtered density at the dilated and eroded thresholds (the designs of an over- and an under-etch by about the filter&apos;s edge width) and raises the worst of the three figures of merit. Three times the runs; needs MMA or CCSA (L-BFGS is replaced by MMA in the same step).</source>
        <translation>Robustes Design (Wang, Lazarov und Sigmund 2011): jede Iteration projiziert die gefilterte Dichte auch bei der dilatierten und der erodierten Schwelle (die Designs einer Unter- und einer Überätzung um etwa die Kantenbreite des Filters) und hebt die schlechteste der drei Gütezahlen an. Dreimal so viele Läufe; braucht MMA oder CCSA (L-BFGS wird im selben Schritt durch MMA ersetzt).</translation>
    </message>
    <message>
        <source>Turn robust design on</source>
        <translation>Robustes Design einschalten</translation>
    </message>
    <message>
        <source>Turn robust design off</source>
        <translation>Robustes Design ausschalten</translation>
    </message>
    <message>
        <source>Robust design</source>
        <translation>Robustes Design</translation>
    </message>
    <message>
        <source>Dilated threshold</source>
        <translation>Dilatierte Schwelle</translation>
    </message>
    <message>
        <source>Edit robust design</source>
        <translation>Robustes Design bearbeiten</translation>
    </message>
    <message>
        <source>Eroded threshold</source>
        <translation>Erodierte Schwelle</translation>
    </message>
    <message>
        <source>The projection threshold of the dilated design: 0 &lt; it &lt; the projection&apos;s eta (%1)</source>
        <translation>Die Projektionsschwelle des dilatierten Designs: 0 &lt; sie &lt; eta der Projektion (%1)</translation>
    </message>
    <message>
        <source>The projection threshold of the eroded design: the projection&apos;s eta (%1) &lt; it &lt; 1</source>
        <translation>Die Projektionsschwelle des erodierten Designs: eta der Projektion (%1) &lt; sie &lt; 1</translation>
    </message>
    <message>
        <source>must lie between 0 and 1, found %1</source>
        <translation>muss zwischen 0 und 1 liegen, gefunden %1</translation>
    </message>
    <message>
        <source>must lie between the robust design&apos;s dilated threshold (%1) and eroded threshold (%2), found %3</source>
        <translation>muss zwischen der dilatierten Schwelle (%1) und der erodierten Schwelle (%2) des robusten Designs liegen, gefunden %3</translation>
    </message>
    <message>
        <source>Projection threshold</source>
        <translation>Projektionsschwelle</translation>
    </message>
    <message>
        <source>The projection&apos;s threshold eta: filtered densities above it become the solid material (rho = 1), below it the other one. 0 &lt; eta &lt; 1, usually 0.5; with the robust design between its dilated and eroded thresholds.</source>
        <translation>Die Schwelle eta der Projektion: gefilterte Dichten darüber werden zum festen Material (rho = 1), darunter zum anderen. 0 &lt; eta &lt; 1, meist 0,5; beim robusten Design zwischen seiner dilatierten und erodierten Schwelle.</translation>
    </message>
</context>
<context>
    <name>golightly::editor::RunChecks</name>
    <message>
        <source>layer &quot;%1&quot;</source>
        <translation>Ebene „%1“</translation>
    </message>
    <message>
        <source>shape %1</source>
        <translation>Form %1</translation>
    </message>
    <message>
        <source>source &quot;%1&quot;</source>
        <translation>Quelle „%1“</translation>
    </message>
    <message>
        <source>monitor &quot;%1&quot;</source>
        <translation>Monitor „%1“</translation>
    </message>
    <message>
        <source>material &quot;%1&quot;</source>
        <translation>Material „%1“</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>The reflection monitor &quot;%1&quot; is behind the source &quot;%2&quot; (which sends its wave towards %3): it sees the source&apos;s backward wave instead of the light reflected by the device. Move it between the source and the device.</source>
        <translation>Der Reflexionsmonitor „%1“ liegt hinter der Quelle „%2“ (die ihre Welle in Richtung %3 sendet): Er misst die rückwärts laufende Welle der Quelle statt des vom Bauteil reflektierten Lichts. Legen Sie ihn zwischen Quelle und Bauteil.</translation>
    </message>
    <message>
        <source>Set up normalization</source>
        <translation>Normierung einrichten</translation>
    </message>
    <message>
        <source>Normalization on: the reference run has the source in the empty background; spectra are shown as T and R from the next run.</source>
        <translation>Normierung an: Der Referenzlauf hat die Quelle im leeren Hintergrund; ab dem nächsten Lauf zeigen die Spektren T und R.</translation>
    </message>
    <message>
        <source>Normalization on: the reference run uses the layers %1; spectra are shown as T and R from the next run.</source>
        <translation>Normierung an: Der Referenzlauf verwendet die Ebenen %1; ab dem nächsten Lauf zeigen die Spektren T und R.</translation>
    </message>
    <message>
        <source>Added the reference-only layers %1: the input waveguide under each mode source, extended through the domain (edit or delete them in the Layers dock).</source>
        <translation>Referenzebenen %1 hinzugefügt: der Eingangswellenleiter unter jeder Modenquelle, durch das ganze Gebiet verlängert (im Ebenen-Fenster bearbeiten oder löschen).</translation>
    </message>
    <message>
        <source>No waveguide under the mode sources %1 to derive a reference from.</source>
        <translation>Kein Wellenleiter unter den Modenquellen %1, aus dem sich eine Referenz ableiten ließe.</translation>
    </message>
    <message>
        <source>The reference (normalization) run has no guide under the mode source &quot;%1&quot; (%2 = %3 µm): the run derives the input waveguide for it; untick and tick Normalize to add it as a reference-only layer you can see and edit.</source>
        <translation>Der Referenzlauf (Normierung) hat keinen Wellenleiter unter der Modenquelle „%1“ (%2 = %3 µm): Der Lauf leitet den Eingangswellenleiter dafür ab; „Normieren“ aus- und wieder einschalten, um ihn als sichtbare, bearbeitbare Ebene „Nur Referenzlauf“ hinzuzufügen.</translation>
    </message>
    <message>
        <source>The reference (normalization) run has no guide under the mode source &quot;%1&quot; (%2 = %3 µm), so it will fail: add a reference-only layer with the input waveguide and tick it under Reference layers, or untick every reference layer and switch Normalize off and on to derive it.</source>
        <translation>Der Referenzlauf (Normierung) hat keinen Wellenleiter unter der Modenquelle „%1“ (%2 = %3 µm) und wird scheitern: Fügen Sie eine Ebene „Nur Referenzlauf“ mit dem Eingangswellenleiter hinzu und haken Sie sie unter Referenzebenen an, oder entfernen Sie alle Haken bei den Referenzebenen und schalten Sie „Normieren“ aus und wieder ein, um ihn abzuleiten.</translation>
    </message>
</context>
<context>
    <name>golightly::editor::RunSetupDock</name>
    <message>
        <source>Run setup</source>
        <translation>Simulation</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source>TMz (Ez, Hx, Hy)</source>
        <translation>TMz (Ez, Hx, Hy)</translation>
    </message>
    <message>
        <source>TEz (Hz, Ex, Ey)</source>
        <translation>TEz (Hz, Ex, Ey)</translation>
    </message>
    <message>
        <source>PML</source>
        <translation>PML</translation>
    </message>
    <message>
        <source>periodic</source>
        <translation>periodisch</translation>
    </message>
    <message>
        <source>PEC</source>
        <translation>PEC</translation>
    </message>
    <message>
        <source>PMC</source>
        <translation>PMC</translation>
    </message>
    <message>
        <source>Mur</source>
        <translation>Mur</translation>
    </message>
    <message>
        <source> dB</source>
        <translation> dB</translation>
    </message>
    <message>
        <source> fs</source>
        <translation> fs</translation>
    </message>
    <message>
        <source>Normalize with a reference run</source>
        <translation>Mit einem Referenzlauf normieren</translation>
    </message>
    <message>
        <source>Layers of the reference (normalization) run, e.g. the straight waveguide</source>
        <translation>Ebenen des Referenzlaufs (Normierungslaufs), z. B. der gerade Wellenleiter</translation>
    </message>
    <message>
        <source>Monitor that measures the incident flux (default: the first reflection, else transmission monitor)</source>
        <translation>Monitor, der den einfallenden Fluss misst (Standard: der erste Reflexions-, sonst Transmissionsmonitor)</translation>
    </message>
    <message>
        <source>Tangential (default)</source>
        <translation>Tangential (Standard)</translation>
    </message>
    <message>
        <source>Staircase</source>
        <translation>Treppenstufen</translation>
    </message>
    <message>
        <source>Fill fraction</source>
        <translation>Füllanteil</translation>
    </message>
    <message>
        <source>Conformal</source>
        <translation>Konform</translation>
    </message>
    <message>
        <source>On metal faces along the grid axes, the metal&apos;s full eps(omega) averaged as for dielectrics, realized exactly by poles of each cut cell; curved metals as Tangential</source>
        <translation>Auf Metallflächen entlang der Gitterachsen das volle eps(omega) des Metalls wie bei Dielektrika gemittelt, exakt durch Pole jeder geschnittenen Zelle dargestellt; gekrümmte Metalle wie Tangential</translation>
    </message>
    <message>
        <source>Metal poles averaged for E along the surface, staircased for E normal to it: never worse than staircasing</source>
        <translation>Metallpole für E entlang der Oberfläche gemittelt, für E senkrecht dazu treppenförmig: nie schlechter als Treppenstufen</translation>
    </message>
    <message>
        <source>Cells cut by a metal take the material that fills most of the cell, as Lumerical does</source>
        <translation>Von einem Metall geschnittene Zellen erhalten das Material, das den größten Teil der Zelle füllt, wie in Lumerical</translation>
    </message>
    <message>
        <source>Metal poles weighted by the fill fraction for every component: absorbs spuriously at curved surfaces (for comparison)</source>
        <translation>Metallpole für jede Komponente nach Füllanteil gewichtet: absorbiert an gekrümmten Oberflächen fälschlich (zum Vergleich)</translation>
    </message>
    <message>
        <source>How cells cut by a dispersive (Lorentz/Drude) material are averaged</source>
        <translation>Wie von einem dispersiven (Lorentz/Drude-)Material geschnittene Zellen gemittelt werden</translation>
    </message>
    <message>
        <source>Metals at cut cells</source>
        <translation>Metalle in geschnittenen Zellen</translation>
    </message>
    <message>
        <source>Set metal averaging</source>
        <translation>Metallmittelung setzen</translation>
    </message>
    <message>
        <source>Sub-pixel averaging</source>
        <translation>Subpixel-Mittelung</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>float64</source>
        <translation>float64</translation>
    </message>
    <message>
        <source>Domain x</source>
        <translation>Rechengebiet x</translation>
    </message>
    <message>
        <source>Domain y</source>
        <translation>Rechengebiet y</translation>
    </message>
    <message>
        <source>Cell size</source>
        <translation>Zellgröße</translation>
    </message>
    <message>
        <source>Polarization</source>
        <translation>Polarisation</translation>
    </message>
    <message>
        <source>Boundary x</source>
        <translation>Randbedingung x</translation>
    </message>
    <message>
        <source>Boundary y</source>
        <translation>Randbedingung y</translation>
    </message>
    <message>
        <source>PML cells</source>
        <translation>PML-Zellen</translation>
    </message>
    <message>
        <source>Shortest wavelength</source>
        <translation>Kürzeste Wellenlänge</translation>
    </message>
    <message>
        <source>Longest wavelength</source>
        <translation>Längste Wellenlänge</translation>
    </message>
    <message>
        <source>Spectrum points</source>
        <translation>Spektralpunkte</translation>
    </message>
    <message>
        <source>Courant number</source>
        <translation>Courant-Zahl</translation>
    </message>
    <message>
        <source>Stop at decay</source>
        <translation>Stopp bei Abklingen</translation>
    </message>
    <message>
        <source>Max time</source>
        <translation>Maximale Zeit</translation>
    </message>
    <message>
        <source>Reference layers</source>
        <translation>Referenzebenen</translation>
    </message>
    <message>
        <source>Incident monitor</source>
        <translation>Einfallsmonitor</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Set domain size</source>
        <translation>Größe des Rechengebiets festlegen</translation>
    </message>
    <message>
        <source>Set cell size</source>
        <translation>Zellgröße festlegen</translation>
    </message>
    <message>
        <source>Set spectrum</source>
        <translation>Spektrum festlegen</translation>
    </message>
    <message>
        <source>Set Courant number</source>
        <translation>Courant-Zahl festlegen</translation>
    </message>
    <message>
        <source>Set stop criterion</source>
        <translation>Abbruchkriterium festlegen</translation>
    </message>
    <message>
        <source>Set PML cells</source>
        <translation>PML-Zellen festlegen</translation>
    </message>
    <message>
        <source>Set polarization</source>
        <translation>Polarisation festlegen</translation>
    </message>
    <message>
        <source>Set boundaries</source>
        <translation>Randbedingungen festlegen</translation>
    </message>
    <message>
        <source>Set backend</source>
        <translation>Backend festlegen</translation>
    </message>
    <message>
        <source>Set precision</source>
        <translation>Genauigkeit festlegen</translation>
    </message>
    <message>
        <source>Set normalization</source>
        <translation>Normierung festlegen</translation>
    </message>
    <message>
        <source>Set reference layers</source>
        <translation>Referenzebenen festlegen</translation>
    </message>
    <message>
        <source>Set incident monitor</source>
        <translation>Einfallsmonitor festlegen</translation>
    </message>
    <message>
        <source>Set sub-pixel averaging</source>
        <translation>Subpixel-Mittelung festlegen</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(Standard)</translation>
    </message>
    <message>
        <source>%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 cells</source>
        <translation>%1 Zellen pro Wellenlänge (n = %2 bei %3 µm); Gitter %4 × %5 Zellen</translation>
    </message>
    <message>
        <source>At least 10 cells per wavelength in the densest material are recommended; 20+ for accurate phase.</source>
        <translation>Empfohlen sind mindestens 10 Zellen pro Wellenlänge im optisch dichtesten Material; 20 und mehr für eine genaue Phase.</translation>
    </message>
    <message>
        <source>2D</source>
        <translation>2D</translation>
    </message>
    <message>
        <source>3D</source>
        <translation>3D</translation>
    </message>
    <message>
        <source>2D (one cell in z, TMz or TEz) or 3D (all six field components); switching keeps the drawing: layers become extrusions over their z range</source>
        <translation>2D (eine Zelle in z, TMz oder TEz) oder 3D (alle sechs Feldkomponenten); beim Umschalten bleibt die Zeichnung erhalten: Ebenen werden über ihren z-Bereich extrudiert</translation>
    </message>
    <message>
        <source>The slice of the 3D grid the field view shows when a run starts (changeable while running in the Run tool bar)</source>
        <translation>Der Schnitt des 3D-Gitters, den die Feldansicht beim Start eines Laufs zeigt (während des Laufs in der Werkzeugleiste „Ausführen“ änderbar)</translation>
    </message>
    <message>
        <source>Position of the slice along its normal</source>
        <translation>Position des Schnitts entlang seiner Normalen</translation>
    </message>
    <message>
        <source>Dimensions</source>
        <translation>Dimensionen</translation>
    </message>
    <message>
        <source>Domain z</source>
        <translation>Rechengebiet z</translation>
    </message>
    <message>
        <source>Boundary z</source>
        <translation>Randbedingung z</translation>
    </message>
    <message>
        <source>Slice plane</source>
        <translation>Schnittebene</translation>
    </message>
    <message>
        <source>Slice position</source>
        <translation>Schnittposition</translation>
    </message>
    <message>
        <source>Set slice</source>
        <translation>Schnitt festlegen</translation>
    </message>
    <message>
        <source>Switch to 3D</source>
        <translation>Auf 3D umschalten</translation>
    </message>
    <message>
        <source>Switch to 2D</source>
        <translation>Auf 2D umschalten</translation>
    </message>
    <message>
        <source>%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 x %6 cells</source>
        <translation>%1 Zellen pro Wellenlänge (n = %2 bei %3 µm); Gitter %4 × %5 × %6 Zellen</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>even (+1, PMC plane)</source>
        <translation>gerade (+1, PMC-Ebene)</translation>
    </message>
    <message>
        <source>odd (-1, PEC plane)</source>
        <translation>ungerade (−1, PEC-Ebene)</translation>
    </message>
    <message>
        <source>Mirror symmetry through the domain&apos;s centre plane normal to %1: the run simulates the upper half only (half the cost) and reports the whole domain. Even: E tangential to the plane is even (a z dipole is even in x and y); odd: it is odd (a z dipole is odd in z).</source>
        <translation>Spiegelsymmetrie an der Mittelebene des Gebiets senkrecht zu %1: die Rechnung simuliert nur die obere Hälfte (halbe Kosten) und liefert das ganze Gebiet. Gerade: E tangential zur Ebene ist gerade (ein z-Dipol ist gerade in x und y); ungerade: es ist ungerade (ein z-Dipol ist ungerade in z).</translation>
    </message>
    <message>
        <source>Symmetry x</source>
        <translation>Symmetrie x</translation>
    </message>
    <message>
        <source>Symmetry y</source>
        <translation>Symmetrie y</translation>
    </message>
    <message>
        <source>Symmetry z</source>
        <translation>Symmetrie z</translation>
    </message>
    <message>
        <source>Set symmetry</source>
        <translation>Symmetrie setzen</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <source>this field takes a number only</source>
        <translation>dieses Feld nimmt nur eine Zahl</translation>
    </message>
</context>
<context>
    <name>golightly::editor::SelectTool</name>
    <message>
        <source>Rotate shape</source>
        <translation>Form drehen</translation>
    </message>
    <message>
        <source>Resize shape</source>
        <translation>Formgröße ändern</translation>
    </message>
    <message>
        <source>Select</source>
        <translation>Auswählen</translation>
    </message>
    <message>
        <source>Click to select; drag to move; drag a corner handle to resize, Shift+drag it to rotate; Del deletes, Ctrl+D duplicates</source>
        <translation>Klicken zum Auswählen; Ziehen zum Verschieben; einen Eckgriff ziehen zum Skalieren, mit Umschalt zum Drehen; Entf löscht, Strg+D dupliziert</translation>
    </message>
</context>
<context>
    <name>golightly::editor::SolidTool</name>
    <message>
        <source>Draw sphere</source>
        <translation>Kugel zeichnen</translation>
    </message>
    <message>
        <source>Draw box</source>
        <translation>Quader zeichnen</translation>
    </message>
    <message>
        <source>Sphere</source>
        <translation>Kugel</translation>
    </message>
    <message>
        <source>Box</source>
        <translation>Quader</translation>
    </message>
    <message>
        <source>Drag from the centre outwards to draw a sphere (3D); its z centre is the middle of the layer&apos;s z range</source>
        <translation>Von der Mitte nach außen ziehen, um eine Kugel (3D) zu zeichnen; ihr z-Mittelpunkt ist die Mitte des z-Bereichs der Ebene</translation>
    </message>
    <message>
        <source>Drag from corner to corner to draw a box (3D) over the layer&apos;s z range; z in the Properties dock</source>
        <translation>Von Ecke zu Ecke ziehen, um einen Quader (3D) über den z-Bereich der Ebene zu zeichnen; z im Eigenschaften-Fenster</translation>
    </message>
</context>
<context>
    <name>golightly::editor::SourceTool</name>
    <message>
        <source>Point source</source>
        <translation>Punktquelle</translation>
    </message>
    <message>
        <source>Line source</source>
        <translation>Linienquelle</translation>
    </message>
    <message>
        <source>Region source</source>
        <translation>Flächenquelle</translation>
    </message>
</context>
<context>
    <name>golightly::editor::StepFileReader</name>
    <message>
        <source>Reading %1 was cancelled.</source>
        <translation>Das Lesen von %1 wurde abgebrochen.</translation>
    </message>
    <message>
        <source>Cannot import the STEP file %1:
%2</source>
        <translation>Die STEP-Datei %1 kann nicht importiert werden:
%2</translation>
    </message>
</context>
<context>
    <name>golightly::editor::StepImportDialog</name>
    <message>
        <source>Section at z = %1 µm</source>
        <translation>Schnitt bei z = %1 µm</translation>
    </message>
    <message>
        <source>Import STEP</source>
        <translation>STEP importieren</translation>
    </message>
    <message>
        <source>Reading... %p%</source>
        <translation>Lesen... %p%</translation>
    </message>
    <message>
        <source>Cancel reading</source>
        <translation>Lesen abbrechen</translation>
    </message>
    <message>
        <source>Placement</source>
        <translation>Platzierung</translation>
    </message>
    <message>
        <source>File unit</source>
        <translation>Dateieinheit</translation>
    </message>
    <message>
        <source> µm per unit</source>
        <translation> µm pro Einheit</translation>
    </message>
    <message>
        <source>Length of one file unit in µm (the file&apos;s own unit is proposed: mm = 1000)</source>
        <translation>Länge einer Dateieinheit in µm (vorgeschlagen wird die Einheit der Datei: mm = 1000)</translation>
    </message>
    <message>
        <source>Unit scale</source>
        <translation>Einheitenmaßstab</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source> deg</source>
        <translation> Grad</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Verschiebung</translation>
    </message>
    <message>
        <source>Rotation</source>
        <translation>Drehung</translation>
    </message>
    <message>
        <source>Centre in domain</source>
        <translation>Im Gebiet zentrieren</translation>
    </message>
    <message>
        <source>Centre the part in x and y in the domain and put the slice plane through the middle of its z range</source>
        <translation>Das Teil in x und y im Gebiet zentrieren und die Schnittebene durch die Mitte seines z-Bereichs legen</translation>
    </message>
    <message>
        <source>Fit into domain</source>
        <translation>In das Gebiet einpassen</translation>
    </message>
    <message>
        <source>Choose the scale so that the part spans 80 % of the domain, then centre it</source>
        <translation>Den Maßstab so wählen, dass das Teil 80 % des Gebiets einnimmt, dann zentrieren</translation>
    </message>
    <message>
        <source>Solid</source>
        <translation>Körper</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>Farbe</translation>
    </message>
    <message>
        <source>Size (µm)</source>
        <translation>Größe (µm)</translation>
    </message>
    <message>
        <source>Section area (µm²)</source>
        <translation>Schnittfläche (µm²)</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Ebene</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>Material</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>reading</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>transferring</source>
        <translation>Übertragen</translation>
    </message>
    <message>
        <source>solids</source>
        <translation>Körper</translation>
    </message>
    <message>
        <source>Reading (%1)... %p%</source>
        <translation>Lesen (%1)... %p%</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>Datei: %1</translation>
    </message>
    <message>
        <source>Reading the file...</source>
        <translation>Die Datei wird gelesen...</translation>
    </message>
    <message>
        <source>STEP import</source>
        <translation>STEP-Import</translation>
    </message>
    <message>
        <source>%1 (1 unit = %2 µm)</source>
        <translation>%1 (1 Einheit = %2 µm)</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <source>Include this solid</source>
        <translation>Diesen Körper einschließen</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>An existing layer, or type the name of a new one</source>
        <translation>Eine vorhandene Ebene, oder den Namen einer neuen eingeben</translation>
    </message>
    <message>
        <source>new: %1 (eps 2.25)</source>
        <translation>neu: %1 (eps 2,25)</translation>
    </message>
    <message>
        <source>The material of a new layer (an existing layer keeps its own)</source>
        <translation>Das Material einer neuen Ebene (eine vorhandene Ebene behält ihres)</translation>
    </message>
    <message>
        <source>misses the slice plane</source>
        <translation>verfehlt die Schnittebene</translation>
    </message>
    <message>
        <source>Cannot cut the solids: %1</source>
        <translation>Die Körper können nicht geschnitten werden: %1</translation>
    </message>
    <message>
        <source>No solid is included.</source>
        <translation>Kein Körper ist eingeschlossen.</translation>
    </message>
    <message numerus="yes">
        <source>%n chosen solid(s) do not cross the slice plane z = %1 µm: %2. Move the part (translation z), change the slice plane or leave them out.</source>
        <translation>
            <numerusform>%n gewählter Körper schneidet die Schnittebene z = %1 µm nicht: %2. Verschieben Sie das Teil (Verschiebung z), ändern Sie die Schnittebene oder lassen Sie ihn weg.</numerusform>
            <numerusform>%n gewählte Körper schneiden die Schnittebene z = %1 µm nicht: %2. Verschieben Sie das Teil (Verschiebung z), ändern Sie die Schnittebene oder lassen Sie sie weg.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n solid(s) cross the slice plane z = %1 µm.</source>
        <translation>
            <numerusform>%n Körper schneidet die Schnittebene z = %1 µm.</numerusform>
            <numerusform>%n Körper schneiden die Schnittebene z = %1 µm.</numerusform>
        </translation>
    </message>
    <message>
        <source>No STEP file is loaded.</source>
        <translation>Keine STEP-Datei ist geladen.</translation>
    </message>
    <message>
        <source>Cannot import %1: the solids on the new layer &quot;%2&quot; have different materials (%3, %4); a layer has one material.</source>
        <translation>%1 kann nicht importiert werden: Die Körper auf der neuen Ebene „%2“ haben verschiedene Materialien (%3, %4); eine Ebene hat ein Material.</translation>
    </message>
    <message>
        <source>Cannot import %1: no solid is included.</source>
        <translation>%1 kann nicht importiert werden: Kein Körper ist eingeschlossen.</translation>
    </message>
    <message>
        <source>Cannot import %1:
%2</source>
        <translation>%1 kann nicht importiert werden:
%2</translation>
    </message>
    <message>
        <source>Import STEP %1</source>
        <translation>STEP %1 importieren</translation>
    </message>
    <message>
        <source>Re-import STEP</source>
        <translation>STEP neu importieren</translation>
    </message>
    <message>
        <source>Select an imported STEP part to re-import.</source>
        <translation>Wählen Sie ein importiertes STEP-Teil zum Neuimportieren aus.</translation>
    </message>
    <message>
        <source>Cannot re-import %1:
%2</source>
        <translation>%1 kann nicht neu importiert werden:
%2</translation>
    </message>
    <message>
        <source>Re-import STEP %1</source>
        <translation>STEP %1 neu importieren</translation>
    </message>
    <message>
        <source>Height of the slice plane: the 2D simulation uses the section of the solids at this z (the project&apos;s slice plane, changed on Import)</source>
        <translation>Höhe der Schnittebene: Die 2D-Simulation verwendet den Schnitt der Körper bei diesem z (die Schnittebene des Projekts, beim Import geändert)</translation>
    </message>
    <message>
        <source>Slice plane z</source>
        <translation>Schnittebene z</translation>
    </message>
    <message>
        <source>3D project: the solids keep their 3D shape, placed in z by the translation&apos;s z; this plane only chooses the section shown here (and &quot;Centre in domain&quot; puts the part&apos;s middle on it)</source>
        <translation>3D-Projekt: Die Körper behalten ihre 3D-Form und werden in z durch das z der Verschiebung platziert; diese Schnittebene wählt nur den hier gezeigten Schnitt (und „Im Gebiet zentrieren“ legt die Mitte des Teils darauf)</translation>
    </message>
    <message>
        <source>Section z (preview)</source>
        <translation>Schnitt z (Vorschau)</translation>
    </message>
    <message>
        <source>No solid crosses the slice plane z = %1 µm. Move the part (translation z) or change the slice plane.</source>
        <translation>Kein Körper schneidet die Schnittebene z = %1 µm. Verschieben Sie das Teil (Verschiebung z) oder ändern Sie die Schnittebene.</translation>
    </message>
    <message numerus="yes">
        <source>%n solid(s) cross the slice plane z = %1 µm; %2 that miss it are left out (tick one to include it).</source>
        <translation>
            <numerusform>%n Körper schneidet die Schnittebene z = %1 µm; %2, die sie verfehlen, bleiben außen vor (zum Einbeziehen anhaken).</numerusform>
            <numerusform>%n Körper schneiden die Schnittebene z = %1 µm; %2, die sie verfehlen, bleiben außen vor (zum Einbeziehen anhaken).</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (z %2 to %3 µm)</source>
        <translation>%1 (z %2 bis %3 µm)</translation>
    </message>
    <message numerus="yes">
        <source>Cannot import %1: %n ticked solid(s) do not cross the slice plane at z = %2 µm: %3.

Move the part up or down (Translation z), change the slice plane, or untick those solids.</source>
        <translation>
            <numerusform>%1 kann nicht importiert werden: %n angehakter Körper schneidet die Schnittebene bei z = %2 µm nicht: %3.

Verschieben Sie das Teil nach oben oder unten (Verschiebung z), ändern Sie die Schnittebene oder entfernen Sie den Haken.</numerusform>
            <numerusform>%1 kann nicht importiert werden: %n angehakte Körper schneiden die Schnittebene bei z = %2 µm nicht: %3.

Verschieben Sie das Teil nach oben oder unten (Verschiebung z), ändern Sie die Schnittebene oder entfernen Sie die Haken.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot import %1: no solid is ticked; none of them cross the slice plane at z = %2 µm. Move the part up or down (Translation z) or change the slice plane.</source>
        <translation>%1 kann nicht importiert werden: Kein Körper ist angehakt; keiner schneidet die Schnittebene bei z = %2 µm. Verschieben Sie das Teil nach oben oder unten (Verschiebung z) oder ändern Sie die Schnittebene.</translation>
    </message>
    <message>
        <source>Not imported: with %1 %2.</source>
        <translation>Nicht importiert: mit %1 %2.</translation>
    </message>
    <message>
        <source>Not re-imported: with %1 %2.</source>
        <translation>Nicht erneut importiert: mit %1 %2.</translation>
    </message>
</context>
<context>
    <name>golightly::editor::Switch3dDialog</name>
    <message>
        <source>under a second</source>
        <translation>unter einer Sekunde</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>%1 G</source>
        <translation>%1 Mrd.</translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation>%1 Mio.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 cells&lt;/b&gt; (%2 × %3 × %4, PML included)</source>
        <translation>&lt;b&gt;%1 Zellen&lt;/b&gt; (%2 × %3 × %4, PML eingeschlossen)</translation>
    </message>
    <message>
        <source>&lt;b&gt;memory about %1&lt;/b&gt; for the run, %2 while compiling</source>
        <translation>&lt;b&gt;Speicher etwa %1&lt;/b&gt; für die Rechnung, %2 beim Kompilieren</translation>
    </message>
    <message>
        <source>(more than this computer&apos;s %1: the run cannot start)</source>
        <translation>(mehr als die %1 dieses Rechners: die Rechnung kann nicht starten)</translation>
    </message>
    <message>
        <source>(more than half of this computer&apos;s %1)</source>
        <translation>(mehr als die Hälfte der %1 dieses Rechners)</translation>
    </message>
    <message>
        <source>&lt;b&gt;compiling about %1&lt;/b&gt; before the first step</source>
        <translation>&lt;b&gt;Kompilieren etwa %1&lt;/b&gt; vor dem ersten Schritt</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;1000 time steps about %1&lt;/b&gt; on %n CPU thread(s) (a GPU is many times faster)</source>
        <translation>
            <numerusform>&lt;b&gt;1000 Zeitschritte etwa %1&lt;/b&gt; auf %n CPU-Thread (eine GPU ist um ein Vielfaches schneller)</numerusform>
            <numerusform>&lt;b&gt;1000 Zeitschritte etwa %1&lt;/b&gt; auf %n CPU-Threads (eine GPU ist um ein Vielfaches schneller)</numerusform>
        </translation>
    </message>
    <message>
        <source>the run ends when the fields have decayed, at most after %1 steps (about %2)</source>
        <translation>die Rechnung endet, wenn die Felder abgeklungen sind, spätestens nach %1 Schritten (etwa %2)</translation>
    </message>
    <message>
        <source>Switch to 3D</source>
        <translation>Auf 3D umschalten</translation>
    </message>
    <message>
        <source>The 2D drawing becomes a 3D device: each layer is extruded over a z range, sources and monitors become planes, ports become planes around the core. A 3D grid has many more cells than the 2D one; this is what it will cost:</source>
        <translation>Die 2D-Zeichnung wird ein 3D-Bauteil: jede Ebene wird über einen z-Bereich extrudiert, Quellen und Monitore werden Flächen, Ports Flächen um den Kern. Ein 3D-Gitter hat viel mehr Zellen als das 2D-Gitter; das wird es kosten:</translation>
    </message>
    <message>
        <source>The 3D cell size: doubling it divides the cells by 8 and the time by 16</source>
        <translation>Die Zellgröße in 3D: verdoppelt teilt sie die Zellen durch 8 und die Zeit durch 16</translation>
    </message>
    <message>
        <source>Cell size</source>
        <translation>Zellgröße</translation>
    </message>
    <message>
        <source>Layers as a 220 nm SOI stack (core, buried oxide below, cladding above)</source>
        <translation>Ebenen als 220-nm-SOI-Schichtfolge (Kern, vergrabenes Oxid darunter, Mantel darüber)</translation>
    </message>
    <message>
        <source>Off: every layer without a z range spans the whole domain height</source>
        <translation>Aus: jede Ebene ohne z-Bereich füllt die ganze Höhe des Rechengebiets</translation>
    </message>
    <message>
        <source>The Layer Stack dock edits the z ranges afterwards; Undo switches back.</source>
        <translation>Das Schichtstapel-Fenster ändert die z-Bereiche danach; Rückgängig wechselt zurück.</translation>
    </message>
    <message>
        <source>the whole height</source>
        <translation>die ganze Höhe</translation>
    </message>
    <message>
        <source>core</source>
        <translation>Kern</translation>
    </message>
    <message>
        <source>below the core</source>
        <translation>unter dem Kern</translation>
    </message>
    <message>
        <source>above the core</source>
        <translation>über dem Kern</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message numerus="yes">
        <source>%n port plane(s): %1</source>
        <translation>
            <numerusform>%n Port-Fläche: %1</numerusform>
            <numerusform>%n Port-Flächen: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Domain height %1 µm. z ranges:</source>
        <translation>Höhe des Rechengebiets %1 µm. z-Bereiche:</translation>
    </message>
</context>
<context>
    <name>golightly::editor::Tool</name>
    <message>
        <source>Add a layer first (Layers dock).</source>
        <translation>Fügen Sie zuerst eine Ebene hinzu (Ebenen-Fenster).</translation>
    </message>
    <message>
        <source>The current layer &quot;%1&quot; is locked.</source>
        <translation>Die aktuelle Ebene „%1“ ist gesperrt.</translation>
    </message>
    <message>
        <source>The current layer &quot;%1&quot; is hidden.</source>
        <translation>Die aktuelle Ebene „%1“ ist ausgeblendet.</translation>
    </message>
</context>
<context>
    <name>golightly::plots::FarFieldView</name>
    <message>
        <source>Polar plot (2D), theta-phi map (3D) or cartesian curves (2D: against phi; 3D: the phi = 0 and 90 degree cuts against theta)</source>
        <translation>Polardiagramm (2D), Theta-Phi-Karte (3D) oder kartesische Kurven (2D: über Phi; 3D: die Schnitte Phi = 0 und 90 Grad über Theta)</translation>
    </message>
    <message>
        <source>Directivity</source>
        <translation>Richtwirkung</translation>
    </message>
    <message>
        <source>Radiation intensity</source>
        <translation>Strahlungsintensität</translation>
    </message>
    <message>
        <source>Directivity: the intensity over its average over all directions; radiation intensity: power per steradian (per radian in 2D), in the DFT units of the spectra</source>
        <translation>Richtwirkung: die Intensität bezogen auf ihren Mittelwert über alle Richtungen; Strahlungsintensität: Leistung pro Steradiant (pro Radiant in 2D), in den DFT-Einheiten der Spektren</translation>
    </message>
    <message>
        <source>dB</source>
        <translation>dB</translation>
    </message>
    <message>
        <source>10 log10 of the quantity; %1 dB below the peak are shown</source>
        <translation>10 log10 der Größe; %1 dB unter dem Maximum werden gezeigt</translation>
    </message>
    <message>
        <source>The monitor and wavelength the theta-phi map shows</source>
        <translation>Monitor und Wellenlänge, die die Theta-Phi-Karte zeigt</translation>
    </message>
    <message>
        <source>View</source>
        <translation>Ansicht</translation>
    </message>
    <message>
        <source>Angle (°)</source>
        <translation>Winkel (°)</translation>
    </message>
    <message>
        <source>Phi (°)</source>
        <translation>Phi (°)</translation>
    </message>
    <message>
        <source>Theta (°)</source>
        <translation>Theta (°)</translation>
    </message>
    <message>
        <source>Directivity (dBi)</source>
        <translation>Richtwirkung (dBi)</translation>
    </message>
    <message>
        <source>Radiation intensity (dB)</source>
        <translation>Strahlungsintensität (dB)</translation>
    </message>
    <message>
        <source>Polar</source>
        <translation>Polar</translation>
    </message>
    <message>
        <source>Cartesian</source>
        <translation>Kartesisch</translation>
    </message>
    <message>
        <source>Theta-phi map</source>
        <translation>Theta-Phi-Karte</translation>
    </message>
    <message>
        <source>Principal cuts</source>
        <translation>Hauptschnitte</translation>
    </message>
    <message>
        <source>, phi %1°</source>
        <translation>, Phi %1°</translation>
    </message>
</context>
<context>
    <name>golightly::plots::MonitorsDock</name>
    <message>
        <source>Monitors</source>
        <translation>Monitore</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>Noch kein Lauf.</translation>
    </message>
    <message>
        <source>Wavelength (µm)</source>
        <translation>Wellenlänge (µm)</translation>
    </message>
    <message>
        <source>Flux (raw)</source>
        <translation>Fluss (roh)</translation>
    </message>
    <message>
        <source>Time (fs)</source>
        <translation>Zeit (fs)</translation>
    </message>
    <message>
        <source>Energy below peak (dB)</source>
        <translation>Energie unter dem Maximum (dB)</translation>
    </message>
    <message>
        <source>Spectra</source>
        <translation>Spektren</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>Energie</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Anpassen</translation>
    </message>
    <message>
        <source>Rescale the axes to the data</source>
        <translation>Achsen an die Daten anpassen</translation>
    </message>
    <message>
        <source>Export...</source>
        <translation>Exportieren...</translation>
    </message>
    <message>
        <source>Save the current plot as PNG, PDF or CSV</source>
        <translation>Aktuelles Diagramm als PNG, PDF oder CSV speichern</translation>
    </message>
    <message>
        <source>Running...</source>
        <translation>Läuft...</translation>
    </message>
    <message>
        <source> - not comparable (edited)</source>
        <translation> – nicht vergleichbar (bearbeitet)</translation>
    </message>
    <message>
        <source> (spectra normalized)</source>
        <translation> (Spektren normiert)</translation>
    </message>
    <message>
        <source> (raw spectra)</source>
        <translation> (Rohspektren)</translation>
    </message>
    <message>
        <source>main run</source>
        <translation>Hauptlauf</translation>
    </message>
    <message>
        <source>Finished: %1 after %2 steps (%3 fs), %4 Mcells/s on %5%6</source>
        <translation>Beendet: %1 nach %2 Schritten (%3 fs), %4 MZellen/s auf %5%6</translation>
    </message>
    <message>
        <source>; spectra not comparable (edited during the run)</source>
        <translation>; Spektren nicht vergleichbar (während des Laufs bearbeitet)</translation>
    </message>
    <message>
        <source>%1 holds no spectra.csv or summary.json</source>
        <translation>%1 enthält weder spectra.csv noch summary.json</translation>
    </message>
    <message>
        <source>Results %1: %2 after %3 steps (%4 fs), %5 Mcells/s on %6</source>
        <translation>Ergebnisse %1: %2 nach %3 Schritten (%4 fs), %5 MZellen/s auf %6</translation>
    </message>
    <message>
        <source>No results in %1</source>
        <translation>Keine Ergebnisse in %1</translation>
    </message>
    <message>
        <source>Results %1</source>
        <translation>Ergebnisse %1</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG-Bild (*.png);;PDF (*.pdf);;CSV-Tabelle (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>%1 konnte nicht geschrieben werden</translation>
    </message>
    <message>
        <source>T, R (normalized)</source>
        <translation>T, R (normiert)</translation>
    </message>
    <message>
        <source>These are raw fluxes (normalization is off). Normalize to get transmission and reflection between 0 and 1.</source>
        <translation>Dies sind Rohflüsse (Normierung ist aus). Normieren Sie, um Transmission und Reflexion zwischen 0 und 1 zu erhalten.</translation>
    </message>
    <message>
        <source>Normalize</source>
        <translation>Normieren</translation>
    </message>
    <message>
        <source>Turn on the normalization (reference) run in one step; applies from the next run</source>
        <translation>Den Normierungslauf (Referenzlauf) in einem Schritt einschalten; gilt ab dem nächsten Lauf</translation>
    </message>
    <message>
        <source>Field at the probe (V/m, A/m)</source>
        <translation>Feld an der Sonde (V/m, A/m)</translation>
    </message>
    <message>
        <source>%1: step %2, %3 fs%4</source>
        <translation>%1: Schritt %2, %3 fs%4</translation>
    </message>
    <message>
        <source>Reference run</source>
        <translation>Referenzlauf</translation>
    </message>
    <message>
        <source>Main run</source>
        <translation>Hauptlauf</translation>
    </message>
    <message>
        <source>reference run</source>
        <translation>Referenzlauf</translation>
    </message>
    <message>
        <source>Cross-section (µm²)</source>
        <translation>Wirkungsquerschnitt (µm²)</translation>
    </message>
    <message>
        <source>Cross-section per length (µm)</source>
        <translation>Wirkungsquerschnitt pro Länge (µm)</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>Monitor</translation>
    </message>
    <message>
        <source>Frequency (THz)</source>
        <translation>Frequenz (THz)</translation>
    </message>
    <message>
        <source>Q</source>
        <translation>Q</translation>
    </message>
    <message>
        <source>Amplitude</source>
        <translation>Amplitude</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Resonances</source>
        <translation>Resonanzen</translation>
    </message>
    <message>
        <source>Far field</source>
        <translation>Fernfeld</translation>
    </message>
    <message>
        <source>Wavelength</source>
        <translation>Wellenlänge</translation>
    </message>
    <message>
        <source>Diffraction order</source>
        <translation>Beugungsordnung</translation>
    </message>
    <message>
        <source>Power fraction</source>
        <translation>Leistungsanteil</translation>
    </message>
    <message>
        <source>Power per propagating Floquet order of each diffraction monitor at the chosen wavelength (golightly-cli diffraction prints the table)</source>
        <translation>Leistung je ausbreitungsfähiger Floquet-Ordnung jedes Beugungsmonitors bei der gewählten Wellenlänge (golightly-cli diffraction gibt die Tabelle aus)</translation>
    </message>
    <message>
        <source>Diffraction</source>
        <translation>Beugung</translation>
    </message>
    <message>
        <source>Mode power |a|² (raw)</source>
        <translation>Modenleistung |a|² (roh)</translation>
    </message>
    <message>
        <source>Power in each mode of the mode monitors: forward |a+|² solid, backward |a-|² dashed (spectra.csv: &lt;monitor&gt;_m&lt;k&gt;_fwd_re ...)</source>
        <translation>Leistung in jeder Mode der Modenmonitore: vorwärts |a+|² durchgezogen, rückwärts |a-|² gestrichelt (spectra.csv: &lt;monitor&gt;_m&lt;k&gt;_fwd_re ...)</translation>
    </message>
    <message>
        <source>%1 mode %2 backward</source>
        <translation>%1 Mode %2 rückwärts</translation>
    </message>
    <message>
        <source>%1 mode %2 forward</source>
        <translation>%1 Mode %2 vorwärts</translation>
    </message>
    <message>
        <source>Mode power |a|² (of the incident power)</source>
        <translation>Modenleistung |a|² (bezogen auf die einfallende Leistung)</translation>
    </message>
    <message>
        <source>fields decayed</source>
        <translation>Felder abgeklungen</translation>
    </message>
    <message>
        <source>time limit reached</source>
        <translation>Zeitgrenze erreicht</translation>
    </message>
    <message>
        <source>step limit reached</source>
        <translation>Schrittgrenze erreicht</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>divergiert</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>resonances found</source>
        <translation>Resonanzen gefunden</translation>
    </message>
    <message>
        <source>Resonances found by Harminv in the time monitors with &quot;resonances&quot;; select one to mark its wavelength on the spectra, double-click it for a field picture of the mode (a second short run with a narrow-band source)</source>
        <translation>Von Harminv gefundene Resonanzen der Zeitmonitore mit „resonances“; eine auswählen, um ihre Wellenlänge in den Spektren zu markieren, doppelklicken für ein Feldbild der Mode (ein zweiter kurzer Lauf mit schmalbandiger Quelle)</translation>
    </message>
    <message>
        <source>transmission</source>
        <translation>Transmission</translation>
    </message>
    <message>
        <source>reflection</source>
        <translation>Reflexion</translation>
    </message>
    <message>
        <source>flux</source>
        <translation>Fluss</translation>
    </message>
    <message>
        <source>absorption</source>
        <translation>Absorption</translation>
    </message>
    <message>
        <source>scattering</source>
        <translation>Streuung</translation>
    </message>
    <message>
        <source>mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>Spectra of the flux monitors</source>
        <translation>Spektren der Flussmonitore</translation>
    </message>
    <message>
        <source>Time series of the time monitors</source>
        <translation>Zeitverläufe der Zeitmonitore</translation>
    </message>
    <message>
        <source>Energy decay of the run</source>
        <translation>Energieabklingen des Laufs</translation>
    </message>
    <message>
        <source>Cross-sections of the flux boxes (absorption, scattering)</source>
        <translation>Wirkungsquerschnitte der Flussboxen (Absorption, Streuung)</translation>
    </message>
    <message>
        <source>Resonances found by Harminv in the time monitors</source>
        <translation>Von Harminv gefundene Resonanzen der Zeitmonitore</translation>
    </message>
    <message>
        <source>Far fields of the flux boxes with far_field</source>
        <translation>Fernfelder der Flussboxen mit far_field</translation>
    </message>
    <message>
        <source>Diffraction orders of the diffraction monitors</source>
        <translation>Beugungsordnungen der Beugungsmonitore</translation>
    </message>
    <message>
        <source>Mode amplitudes of the mode monitors</source>
        <translation>Modenamplituden der Modenmonitore</translation>
    </message>
    <message>
        <source>Cross-sections</source>
        <translation>Wirkungsquerschnitte</translation>
    </message>
    <message>
        <source>Mode amplitudes</source>
        <translation>Modenamplituden</translation>
    </message>
</context>
<context>
    <name>golightly::plots::SParamsView</name>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>All S_ij</source>
        <translation>Alle S_ij</translation>
    </message>
    <message>
        <source>Reflections S_ii</source>
        <translation>Reflexionen S_ii</translation>
    </message>
    <message>
        <source>Transmissions S_ij, i ≠ j</source>
        <translation>Transmissionen S_ij, i ≠ j</translation>
    </message>
    <message>
        <source>Wavelength (µm)</source>
        <translation>Wellenlänge (µm)</translation>
    </message>
    <message>
        <source>|S_ij| (dB)</source>
        <translation>|S_ij| (dB)</translation>
    </message>
    <message>
        <source>arg S_ij (degrees)</source>
        <translation>arg S_ij (Grad)</translation>
    </message>
    <message>
        <source>λ = %1 µm</source>
        <translation>λ = %1 µm</translation>
    </message>
</context>
<context>
    <name>golightly::viewport::FieldView</name>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>(auto)</source>
        <translation>(automatisch)</translation>
    </message>
    <message>
        <source>(fixed)</source>
        <translation>(fest)</translation>
    </message>
    <message>
        <source>%1   t = %2 fs   step %3</source>
        <translation>%1   t = %2 fs   Schritt %3</translation>
    </message>
    <message>
        <source>No field yet: Run (F5) to start the simulation</source>
        <translation>Noch kein Feld: Ausführen (F5) startet die Simulation</translation>
    </message>
    <message>
        <source>host frame upload (this build has no CUDA-OpenGL interop)</source>
        <translation>Bildübertragung über den Host (dieser Build hat keine CUDA-OpenGL-Interop)</translation>
    </message>
    <message>
        <source>host frame upload (%1)</source>
        <translation>Bildübertragung über den Host (%1)</translation>
    </message>
    <message>
        <source>CUDA-OpenGL interop (%1)</source>
        <translation>CUDA-OpenGL-Interop (%1)</translation>
    </message>
    <message>
        <source>host frame upload (interop failed: %1)</source>
        <translation>Bildübertragung über den Host (Interop fehlgeschlagen: %1)</translation>
    </message>
    <message>
        <source>%1: waiting for the first field...</source>
        <translation>%1: warte auf das erste Feld...</translation>
    </message>
    <message>
        <source>   slice %1 at %2 = %3 µm</source>
        <translation>   Schnitt %1 bei %2 = %3 µm</translation>
    </message>
</context>
<context>
    <name>golightly::viewport::StructureView3D</name>
    <message>
        <source>3D structure: drag to orbit, right/middle drag (or Shift+drag) to pan, wheel to zoom; click an item to select it in the editor</source>
        <translation>3D-Struktur: Ziehen zum Drehen, mit rechter/mittlerer Maustaste (oder Umschalt+Ziehen) zum Verschieben, Mausrad zum Zoomen; ein Objekt anklicken, um es im Editor auszuwählen</translation>
    </message>
    <message>
        <source>raster (QPainter; no OpenGL context on this platform)</source>
        <translation>Rasterung (QPainter; kein OpenGL-Kontext auf dieser Plattform)</translation>
    </message>
    <message>
        <source>No project</source>
        <translation>Kein Projekt</translation>
    </message>
    <message>
        <source>2D project: layers shown over the z extent they get in 3D</source>
        <translation>2D-Projekt: Ebenen über die z-Ausdehnung gezeigt, die sie in 3D erhalten</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>GoLightly FDTD IDE</source>
        <translation>GoLightly FDTD-Entwicklungsumgebung</translation>
    </message>
    <message>
        <source>Print the version.</source>
        <translation>Die Version ausgeben.</translation>
    </message>
    <message>
        <source>Save a picture of the window to FILE and quit.</source>
        <translation>Ein Bild des Fensters in DATEI speichern und beenden.</translation>
    </message>
    <message>
        <source>Start with the structure preview on.</source>
        <translation>Mit eingeschalteter Strukturvorschau starten.</translation>
    </message>
    <message>
        <source>Project file to open.</source>
        <translation>Zu öffnende Projektdatei.</translation>
    </message>
    <message>
        <source>Start a run of the project after opening it.</source>
        <translation>Nach dem Öffnen einen Lauf des Projekts starten.</translation>
    </message>
    <message>
        <source>With --run --screenshot: picture of PHASE (main or reference).</source>
        <translation>Mit --run --screenshot: Bild von PHASE (main oder reference).</translation>
    </message>
</context>
</TS>
