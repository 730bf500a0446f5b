<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>NumberSpinBox</name>
    <message>
        <source>the value %1 is outside the field&apos;s range (%2 to %3)</source>
        <translation>值 %1 超出该字段的范围（%2 到 %3）</translation>
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
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The project &quot;%1&quot; has unsaved changes. Save them?</source>
        <translation>项目“%1”有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>The fields diverged.</source>
        <translation>场发散。</translation>
    </message>
    <message>
        <source>Run stopped after %1 steps; partial results written.</source>
        <translation>运行在 %1 步后停止；已写入部分结果。</translation>
    </message>
    <message>
        <source>Run finished (%1) after %2 steps, %3 Mcells/s.</source>
        <translation>运行完成（%1），共 %2 步，%3 M单元/秒。</translation>
    </message>
    <message>
        <source>Out of memory: %1</source>
        <translation>内存不足：%1</translation>
    </message>
    <message>
        <source>The project cannot run: %1</source>
        <translation>项目无法运行：%1</translation>
    </message>
    <message>
        <source>Out of host memory.</source>
        <translation>主机内存不足。</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
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
        <translation>n（数据）</translation>
    </message>
    <message>
        <source>Re eps (data)</source>
        <translation>Re eps（数据）</translation>
    </message>
    <message>
        <source>k (data)</source>
        <translation>k（数据）</translation>
    </message>
    <message>
        <source>Im eps (data)</source>
        <translation>Im eps（数据）</translation>
    </message>
    <message>
        <source>Wavelength (µm)</source>
        <translation>波长 (µm)</translation>
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
        <translation>从材料库添加材料</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>line 1: not an S-parameter table (expected wavelength_um,frequency_thz,S11_re,S11_im,...)</source>
        <translation>第 1 行：不是 S 参数表（应为 wavelength_um,frequency_thz,S11_re,S11_im,...）</translation>
    </message>
    <message>
        <source>line 1: %1 S columns is not a square matrix</source>
        <translation>第 1 行：%1 个 S 列不构成方阵</translation>
    </message>
    <message>
        <source>line 1: column %1 should be %2_re</source>
        <translation>第 1 行：第 %1 列应为 %2_re</translation>
    </message>
    <message>
        <source>line %1: %2 values, the header has %3</source>
        <translation>第 %1 行：有 %2 个值，而表头有 %3 个</translation>
    </message>
    <message>
        <source>line %1, column %2: not a number</source>
        <translation>第 %1 行第 %2 列：不是数值</translation>
    </message>
    <message>
        <source>no rows</source>
        <translation>没有数据行</translation>
    </message>
    <message>
        <source>the PML (%1)</source>
        <translation>PML（%1）</translation>
    </message>
    <message>
        <source>material &apos;%1&apos;</source>
        <translation>材料“%1”</translation>
    </message>
    <message>
        <source>material &apos;%1&apos; (layer &apos;%2&apos;)</source>
        <translation>材料“%1”（图层“%2”）</translation>
    </message>
    <message>
        <source>the background (%1)</source>
        <translation>背景（%1）</translation>
    </message>
    <message>
        <source>an unknown region</source>
        <translation>未知区域</translation>
    </message>
    <message>
        <source>a dispersive pole there is not passive (damping gamma &lt; 0 or omega_p² &lt; 0): it amplifies the fields instead of absorbing them. Use a material fit with passive poles.</source>
        <translation>该处的色散极点不是无源的（阻尼 gamma &lt; 0 或 omega_p² &lt; 0）：它放大而不是吸收场。请使用具有无源极点的材料拟合。</translation>
    </message>
    <message>
        <source>the time step is too large for a medium there (epsilon_inf below the dimension times the Courant number squared, or a pole too fast for the time step). Lower the Courant number (Run setup) or the cell size.</source>
        <translation>该处介质的时间步长过大（epsilon_inf 小于维数乘以 Courant 数的平方，或极点相对时间步长过快）。请减小 Courant 数（运行设置）或网格尺寸。</translation>
    </message>
    <message>
        <source>a dispersive material reaches into the PML, which is not designed for dispersive media. End the material at the PML.</source>
        <translation>色散材料延伸进入 PML，而 PML 并非为色散介质设计。请让材料在 PML 处终止。</translation>
    </message>
    <message>
        <source>no unstable material, Courant number or dispersive material in the PML was found there. Try a smaller Courant number or cell size.</source>
        <translation>在该处未发现不稳定的材料、Courant 数问题或 PML 中的色散材料。请尝试更小的 Courant 数或网格尺寸。</translation>
    </message>
    <message>
        <source>The fields diverged in the %1 run at step %2 (%3 fs), starting in cell (%4, %5) near x = %6 µm, y = %7 µm (%8), in %9. Likely cause: %10</source>
        <translation>场在 %1 运行的第 %2 步（%3 fs）发散，起始于单元 (%4, %5)，靠近 x = %6 µm, y = %7 µm（%8），位于%9。可能的原因：%10</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>确定</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>全部保存</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>是(&amp;Y)</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>全部是(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>否(&amp;N)</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>全部否(&amp;O)</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>恢复默认值</translation>
    </message>
    <message>
        <source>Close without Saving</source>
        <translation>关闭而不保存</translation>
    </message>
    <message>
        <source>Don&apos;t Save</source>
        <translation>不保存</translation>
    </message>
</context>
<context>
    <name>QShortcut</name>
    <message>
        <source>Ctrl</source>
        <translation>Ctrl</translation>
    </message>
    <message>
        <source>Shift</source>
        <translation>Shift</translation>
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
        <translation>Del</translation>
    </message>
    <message>
        <source>Ins</source>
        <translation>Ins</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Backspace</source>
        <translation>Backspace</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>Space</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>Return</translation>
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
        <translation>Home</translation>
    </message>
    <message>
        <source>End</source>
        <translation>End</translation>
    </message>
    <message>
        <source>PgUp</source>
        <translation>PgUp</translation>
    </message>
    <message>
        <source>PgDown</source>
        <translation>PgDown</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>Left</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Right</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>Up</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>Down</translation>
    </message>
</context>
<context>
    <name>golightly::app::AboutDialog</name>
    <message>
        <source>About GoLightly</source>
        <translation>关于 GoLightly</translation>
    </message>
    <message>
        <source>&lt;h2&gt;GoLightly&lt;/h2&gt;&lt;p&gt;A GPU FDTD IDE for photonic devices.&lt;/p&gt;&lt;p&gt;&lt;tt&gt;%1&lt;/tt&gt;&lt;/p&gt;</source>
        <translation>&lt;h2&gt;GoLightly&lt;/h2&gt;&lt;p&gt;面向光子器件的 GPU 时域有限差分（FDTD）集成开发环境。&lt;/p&gt;&lt;p&gt;&lt;tt&gt;%1&lt;/tt&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source> (tests only, not shipped)</source>
        <translation>（仅用于测试，不随软件分发）</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Libraries and their licences&lt;/b&gt;&lt;/p&gt;&lt;table cellspacing=&quot;4&quot;&gt;&lt;tr&gt;&lt;th align=&quot;left&quot;&gt;Library&lt;/th&gt;&lt;th align=&quot;left&quot;&gt;Licence&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;&lt;p&gt;Because QCustomPlot is licensed under the GPL v3, the GoLightly IDE as a whole is distributed under the GPL v3. The full texts are in the copyright files of the Debian packages (/usr/share/doc/&amp;lt;package&amp;gt;/copyright); the list is in /usr/share/doc/golightly/THIRD_PARTY_LICENSES.txt.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;所用库及其许可证&lt;/b&gt;&lt;/p&gt;&lt;table cellspacing=&quot;4&quot;&gt;&lt;tr&gt;&lt;th align=&quot;left&quot;&gt;库&lt;/th&gt;&lt;th align=&quot;left&quot;&gt;许可证&lt;/th&gt;&lt;/tr&gt;%1&lt;/table&gt;&lt;p&gt;由于 QCustomPlot 采用 GPL v3 许可证，GoLightly 集成开发环境整体以 GPL v3 分发。许可证全文见各 Debian 软件包的 copyright 文件（/usr/share/doc/&amp;lt;软件包&amp;gt;/copyright）；列表见 /usr/share/doc/golightly/THIRD_PARTY_LICENSES.txt。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>golightly::app::InverseDesignDock</name>
    <message>
        <source>Inverse Design</source>
        <translation>逆向设计</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Continue from the last design with the project as it is now</source>
        <translation>以项目的当前状态从上一个设计继续</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Export design as GDS...</source>
        <translation>将设计导出为 GDS...</translation>
    </message>
    <message>
        <source>The last design&apos;s binarized contours (density 1/2), as golightly-cli optimize --adjoint writes final.gds</source>
        <translation>上一个设计的二值化轮廓（密度 1/2），与 golightly-cli optimize --adjoint 写出的 final.gds 相同</translation>
    </message>
    <message>
        <source>Apply design as shapes</source>
        <translation>将设计应用为形状</translation>
    </message>
    <message>
        <source>Replace the design region by the last design as polygons (one undo step), to run the binarized device</source>
        <translation>用上一个设计的多边形替换设计区域（一步撤销），以便仿真二值化器件</translation>
    </message>
    <message>
        <source>Draw a design region (Tools &gt; Design Region), choose the objective, then Start.</source>
        <translation>绘制设计区域（工具 &gt; 设计区域），选择目标函数，然后开始。</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>目标函数</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监视器</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Add term</source>
        <translation>添加项</translation>
    </message>
    <message>
        <source>Remove term</source>
        <translation>删除项</translation>
    </message>
    <message>
        <source>Normalize by</source>
        <translation>归一化依据</translation>
    </message>
    <message>
        <source>the spectrum&apos;s centre</source>
        <translation>光谱中心</translation>
    </message>
    <message>
        <source>Wavelengths (µm)</source>
        <translation>波长 (µm)</translation>
    </message>
    <message>
        <source>maximize</source>
        <translation>最大化</translation>
    </message>
    <message>
        <source>minimize</source>
        <translation>最小化</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>MMA and CCSA take the minimum length constraints; L-BFGS does not</source>
        <translation>MMA 和 CCSA 支持最小尺寸约束；L-BFGS 不支持</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Max iterations</source>
        <translation>最大迭代次数</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>figure of merit</source>
        <translation>品质因数</translation>
    </message>
    <message>
        <source>Export design as GDS</source>
        <translation>将设计导出为 GDS</translation>
    </message>
    <message>
        <source>GDSII (*.gds)</source>
        <translation>GDSII (*.gds)</translation>
    </message>
    <message>
        <source>Add a mode monitor first: objective terms read the power in one of its modes.</source>
        <translation>请先添加模式监视器：目标函数项读取其某个模式中的功率。</translation>
    </message>
    <message>
        <source>Add objective term</source>
        <translation>添加目标函数项</translation>
    </message>
    <message>
        <source>Remove objective term</source>
        <translation>删除目标函数项</translation>
    </message>
    <message>
        <source>Edit objective normalization</source>
        <translation>编辑目标函数归一化</translation>
    </message>
    <message>
        <source>Wavelengths: &quot;%1&quot; is not a positive number (µm)</source>
        <translation>波长：“%1”不是正数 (µm)</translation>
    </message>
    <message>
        <source>Edit objective wavelengths</source>
        <translation>编辑目标函数波长</translation>
    </message>
    <message>
        <source>Edit objective goal</source>
        <translation>编辑优化目标</translation>
    </message>
    <message>
        <source>Edit optimizer</source>
        <translation>编辑优化器</translation>
    </message>
    <message>
        <source>|%1|² at (%2)</source>
        <translation>(%2) 处的 |%1|²</translation>
    </message>
    <message>
        <source>Edit objective term</source>
        <translation>编辑目标函数项</translation>
    </message>
    <message>
        <source>The slot in the monitor&apos;s modes (0: its first mode)</source>
        <translation>监视器模式列表中的序号（0：第一个模式）</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>后向</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Nothing to resume: Pause a running optimization first.</source>
        <translation>没有可继续的内容：请先暂停正在运行的优化。</translation>
    </message>
    <message>
        <source>The optimization is running already.</source>
        <translation>优化已在运行。</translation>
    </message>
    <message>
        <source>No output folder for the checkpoint.</source>
        <translation>没有用于检查点的输出文件夹。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1: %2</source>
        <translation>无法创建文件夹 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>All %n iteration(s) are done: raise Max iterations to go on.</source>
        <translation>
            <numerusform>全部 %n 次迭代已完成：请提高最大迭代次数以继续。</numerusform>
        </translation>
    </message>
    <message>
        <source>Starting: compiling the project and the normalization run...</source>
        <translation>开始：编译项目并进行归一化运行...</translation>
    </message>
    <message>
        <source>Resuming from iteration %1...</source>
        <translation>从第 %1 次迭代继续...</translation>
    </message>
    <message>
        <source>Stopped at iteration %1.</source>
        <translation>已在第 %1 次迭代停止。</translation>
    </message>
    <message>
        <source>Iterating: forward and adjoint runs...</source>
        <translation>迭代中：正向和伴随运行...</translation>
    </message>
    <message>
        <source>Iteration %1 of %2: figure of merit %3, beta %4, |grad| %5; %6 s per iteration, ETA %7</source>
        <translation>第 %1 / %2 次迭代：品质因数 %3，beta %4，|grad| %5；每次迭代 %6 秒，预计剩余 %7</translation>
    </message>
    <message>
        <source>The optimization failed: %1</source>
        <translation>优化失败：%1</translation>
    </message>
    <message>
        <source>Stopped after iteration %1 (%2); the design is in %3.</source>
        <translation>在第 %1 次迭代后停止（%2）；设计位于 %3。</translation>
    </message>
    <message>
        <source>Paused after iteration %1: edit the project if needed, then Resume.</source>
        <translation>在第 %1 次迭代后暂停：如有需要请编辑项目，然后继续。</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n iteration(s) (%1); the design is in %2.</source>
        <translation>
            <numerusform>完成：%n 次迭代（%1）；设计位于 %2。</numerusform>
        </translation>
    </message>
    <message>
        <source>No 2D design to export yet: run the optimization first.</source>
        <translation>尚无可导出的二维设计：请先运行优化。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n polygon(s) on layer %1/%2 to %3</source>
        <translation>
            <numerusform>已将图层 %1/%2 上的 %n 个多边形导出到 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export the design: %1</source>
        <translation>无法导出设计：%1</translation>
    </message>
    <message>
        <source>No 2D design to apply yet: run the optimization first.</source>
        <translation>尚无可应用的二维设计：请先运行优化。</translation>
    </message>
    <message>
        <source>The project has no design region to replace.</source>
        <translation>项目中没有可替换的设计区域。</translation>
    </message>
    <message>
        <source>The design region is now plain shapes (new layers on top); Edit &gt; Undo gives it back.</source>
        <translation>设计区域现已变为普通形状（顶部的新图层）；编辑 &gt; 撤销可将其恢复。</translation>
    </message>
    <message>
        <source>Cannot apply the design: %1</source>
        <translation>无法应用设计：%1</translation>
    </message>
    <message>
        <source>The projected density of the last iteration (black: the high material, white: the low one)</source>
        <translation>上一次迭代的投影密度（黑：高材料，白：低材料）</translation>
    </message>
    <message>
        <source>Stop now (the iteration under way is dropped); edit the project, then Resume</source>
        <translation>立即停止（丢弃正在进行的迭代）；编辑项目，然后继续</translation>
    </message>
    <message>
        <source>End the optimization now (the iteration under way is dropped)</source>
        <translation>立即结束优化（丢弃正在进行的迭代）</translation>
    </message>
    <message>
        <source>Forward field</source>
        <translation>正向场</translation>
    </message>
    <message>
        <source>Adjoint field</source>
        <translation>伴随场</translation>
    </message>
    <message>
        <source>The forward run&apos;s field, or the adjoint field whose product with it gives the gradient</source>
        <translation>正向运行的场，或伴随场（它与正向场的乘积给出梯度）</translation>
    </message>
    <message>
        <source>|E|²</source>
        <translation>|E|²</translation>
    </message>
    <message>
        <source>|E|² or the real part of one E component</source>
        <translation>|E|² 或某一 E 分量的实部</translation>
    </message>
    <message>
        <source>Pausing...</source>
        <translation>正在暂停...</translation>
    </message>
    <message>
        <source>Stopping...</source>
        <translation>正在停止...</translation>
    </message>
    <message>
        <source>Re %1</source>
        <translation>Re %1</translation>
    </message>
    <message>
        <source>The field in the design region appears after the first iteration</source>
        <translation>设计区域中的场在第一次迭代后显示</translation>
    </message>
    <message>
        <source>%1 over the design region at %2 µm, last iteration; scaled to its maximum %3 (white: 0, red: the maximum%4)</source>
        <translation>设计区域上的%1，波长 %2 µm，最后一次迭代；按其最大值 %3 缩放（白色：0，红色：最大值%4）</translation>
    </message>
    <message>
        <source>, blue: minus the maximum</source>
        <translation>，蓝色：负的最大值</translation>
    </message>
    <message>
        <source>Wavelengths (µm, comma separated) at which the figure of merit is evaluated</source>
        <translation>计算品质因数所用的波长（µm，逗号分隔）</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Worst wavelength</source>
        <translation>最差波长</translation>
    </message>
    <message>
        <source>Combine</source>
        <translation>组合方式</translation>
    </message>
    <message>
        <source>Edit objective combination</source>
        <translation>编辑目标函数的组合方式</translation>
    </message>
    <message>
        <source>L-BFGS takes no constraints: the worst wavelength needs MMA or CCSA (choose Combine: Mean first)</source>
        <translation>L-BFGS 不支持约束：最差波长需要 MMA 或 CCSA（请先将组合方式设为平均值）</translation>
    </message>
    <message>
        <source>%1 µm</source>
        <translation>%1 µm</translation>
    </message>
    <message>
        <source>Normalization run (the input power for the start design): %1 steps...</source>
        <translation>归一化运行（初始设计的输入功率）：%1 步...</translation>
    </message>
    <message>
        <source>Stopped during the normalization run, before iteration %1.</source>
        <translation>在归一化运行中停止，位于第 %1 次迭代之前。</translation>
    </message>
    <message>
        <source>Paused during the normalization run, before iteration %1: edit the project if needed, then Resume.</source>
        <translation>在归一化运行中暂停，位于第 %1 次迭代之前：如有需要可编辑项目，然后继续。</translation>
    </message>
    <message>
        <source>Cancelled during the normalization run.</source>
        <translation>在归一化运行中取消。</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>How the wavelengths combine: their mean, the worst one (the epigraph form; needs MMA or CCSA), or a formula of F0, F1, ... (F_k: the figure of merit at the k-th wavelength)</source>
        <translation>各波长的组合方式：取平均、取最差波长（上图形式；需要 MMA 或 CCSA），或 F0、F1、... 的公式（F_k：第 k 个波长处的品质因数）</translation>
    </message>
    <message>
        <source>e.g. avg(F0, F1, F2) - 0.5 * abs(F0 - F2)</source>
        <translation>例如 avg(F0, F1, F2) - 0.5 * abs(F0 - F2)</translation>
    </message>
    <message>
        <source>The figure of merit as a formula of F0, F1, ... (F_k: the weighted sum of the terms at the k-th wavelength of the list; without a list F0 at the spectrum&apos;s centre). Functions: min, max, sum, avg, abs, sqrt, exp, log, ...</source>
        <translation>以 F0、F1、... 的公式表示的品质因数（F_k：列表中第 k 个波长处各项的加权和；无列表时 F0 为光谱中心处的值）。函数：min、max、sum、avg、abs、sqrt、exp、log、...</translation>
    </message>
    <message>
        <source>Formula not applied: %1</source>
        <translation>公式未应用：%1</translation>
    </message>
    <message>
        <source>Edit objective formula</source>
        <translation>编辑目标函数公式</translation>
    </message>
    <message>
        <source>L-BFGS takes no constraints: the robust design (the worst of three designs) needs MMA or CCSA (turn Robust design off in the design region&apos;s Properties first)</source>
        <translation>L-BFGS 不支持约束：稳健设计（三个设计中最差者）需要 MMA 或 CCSA（请先在设计区域的属性中关闭“稳健设计”）</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source>The project has no design: draw a design region with Tools &gt; Design Region (its density is optimized), or add shape parameters below (project parameters to optimize).</source>
        <translation>项目没有设计：用 工具 &gt; 设计区域 绘制设计区域（优化其密度），或在下方添加形状参数（要优化的项目参数）。</translation>
    </message>
    <message>
        <source>Shape parameters</source>
        <translation>形状参数</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步长</translation>
    </message>
    <message>
        <source>A project parameter (Parameters dock) that the optimizer moves; its value now is the start</source>
        <translation>优化器调整的项目参数（参数面板）；其当前值为起始值</translation>
    </message>
    <message>
        <source>The smallest value the optimizer may give the parameter (its units)</source>
        <translation>优化器可赋予该参数的最小值（其单位）</translation>
    </message>
    <message>
        <source>The largest value the optimizer may give the parameter (its units)</source>
        <translation>优化器可赋予该参数的最大值（其单位）</translation>
    </message>
    <message>
        <source>The half step of the central difference that gives d eps / d p (below (max - min) / 2); empty: 1e-4 (max - min)</source>
        <translation>求 d eps / d p 的中心差分的半步长（小于 (最大值 - 最小值) / 2）；留空：1e-4 (最大值 - 最小值)</translation>
    </message>
    <message>
        <source>Add parameter</source>
        <translation>添加参数</translation>
    </message>
    <message>
        <source>Optimize one more project parameter (first the ones not listed yet)</source>
        <translation>再优化一个项目参数（先选尚未列出的）</translation>
    </message>
    <message>
        <source>Remove parameter</source>
        <translation>移除参数</translation>
    </message>
    <message>
        <source>Stop optimizing the selected parameter (its value stays)</source>
        <translation>不再优化所选参数（其值保持不变）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>This design optimizes the density of its design region. A design has one kind of variable: delete the design region to optimize shape parameters instead.</source>
        <translation>此设计优化其设计区域的密度。一个设计只有一种变量：删除设计区域即可改为优化形状参数。</translation>
    </message>
    <message>
        <source>Shape parameters are project parameters (widths, positions, ...: Parameters dock) that the optimizer moves within [min, max]. Add a parameter in the Parameters dock first.</source>
        <translation>形状参数是优化器在 [最小值, 最大值] 内调整的项目参数（宽度、位置等：参数面板）。请先在参数面板中添加参数。</translation>
    </message>
    <message>
        <source>Each parameter starts from its value now (shown beside its name).</source>
        <translation>每个参数从其当前值开始（显示在名称旁）。</translation>
    </message>
    <message>
        <source>Shape parameters are project parameters (widths, positions, ...) that the optimizer moves within [min, max], from their values now.</source>
        <translation>形状参数是优化器从当前值出发、在 [最小值, 最大值] 内调整的项目参数（宽度、位置等）。</translation>
    </message>
    <message>
        <source>Not applied: %1: &quot;%2&quot; is not a number</source>
        <translation>未应用：%1：“%2”不是数字</translation>
    </message>
    <message>
        <source>Edit shape parameter</source>
        <translation>编辑形状参数</translation>
    </message>
    <message>
        <source>This design optimizes the density of its design region: a design has one kind of variable.</source>
        <translation>此设计优化其设计区域的密度：一个设计只有一种变量。</translation>
    </message>
    <message>
        <source>The project has no parameters: add one in the Parameters dock first.</source>
        <translation>项目没有参数：请先在参数面板中添加。</translation>
    </message>
    <message>
        <source>Every parameter of the project is listed already.</source>
        <translation>项目的所有参数均已列出。</translation>
    </message>
    <message>
        <source>Add shape parameter</source>
        <translation>添加形状参数</translation>
    </message>
    <message>
        <source>Remove shape parameter</source>
        <translation>移除形状参数</translation>
    </message>
    <message>
        <source>The last shape parameter is removed, and with it the design (Edit &gt; Undo brings it back).</source>
        <translation>最后一个形状参数已移除，设计也随之移除（编辑 &gt; 撤销可将其恢复）。</translation>
    </message>
    <message>
        <source>Optimize the design: its design region&apos;s density, or its shape parameters from their values now (Run &gt; Optimize (adjoint))</source>
        <translation>优化设计：其设计区域的密度，或从当前值出发的形状参数（运行 &gt; 优化（伴随））</translation>
    </message>
    <message>
        <source>A design of shape parameters: choose the objective, then Start (the optimization golightly-cli optimize --adjoint PROJECT runs).</source>
        <translation>形状参数设计：选择目标，然后点击开始（即 golightly-cli optimize --adjoint PROJECT 所运行的优化）。</translation>
    </message>
    <message>
        <source>The project has no design: draw a design region with Tools &gt; Design Region, or add shape parameters.</source>
        <translation>项目没有设计：请用 工具 &gt; 设计区域 绘制设计区域，或添加形状参数。</translation>
    </message>
    <message>
        <source>The design changed its kind (density region or shape parameters) since the run paused: Start afresh.</source>
        <translation>自暂停以来设计的类型已改变（密度区域或形状参数）：请重新开始。</translation>
    </message>
    <message>
        <source>Optimize shape parameters</source>
        <translation>优化形状参数</translation>
    </message>
    <message>
        <source>The parameter values could not be set in the project: %1</source>
        <translation>无法在项目中设置参数值：%1</translation>
    </message>
    <message>
        <source>The shape parameters&apos; values of the last iteration (after the run: the best ones found) and their bounds [min, max]; the project holds them (Edit &gt; Undo gives back the values before the run)</source>
        <translation>最后一次迭代的形状参数值（运行结束后：找到的最佳值）及其范围 [min, max]；项目中保存这些值（编辑 &gt; 撤销 恢复运行前的值）</translation>
    </message>
    <message>
        <source>Iteration %1 of %2: figure of merit %3 at %4, |grad| %5; %6 s per iteration, ETA %7</source>
        <translation>第 %1 次迭代（共 %2 次）：品质因数 %3，位于 %4，|grad| %5；每次迭代 %6 秒，预计剩余 %7</translation>
    </message>
    <message>
        <source>Stopped after iteration %1 (%2); the parameters hold the best values found (%3, figure of merit %4); Edit &gt; Undo gives back the values before the run.</source>
        <translation>在第 %1 次迭代后停止（%2）；参数保存找到的最佳值（%3，品质因数 %4）；编辑 &gt; 撤销 恢复运行前的值。</translation>
    </message>
    <message>
        <source>Paused after iteration %1: the parameters hold the best values so far (%2); edit the project if needed, then Resume.</source>
        <translation>在第 %1 次迭代后暂停：参数保存迄今最佳值（%2）；如有需要编辑项目，然后继续。</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n iteration(s) (%1); the best figure of merit %2 at %3, now the parameters&apos; values (Edit &gt; Undo gives back the values before the run).</source>
        <translation>
            <numerusform>完成：%n 次迭代（%1）；最佳品质因数 %2，位于 %3，现为参数值（编辑 &gt; 撤销 恢复运行前的值）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The project was edited since the run started: the optimizer starts again from the parameters&apos; values now (the iteration numbering goes on; the optimizer&apos;s memory of the earlier steps does not)...</source>
        <translation>项目自运行开始后已被编辑：优化器从参数的当前值重新开始（迭代编号继续；优化器对先前步骤的记忆不保留）……</translation>
    </message>
    <message>
        <source>The field around the shapes appears after the first iteration</source>
        <translation>形状周围的场在第一次迭代后显示</translation>
    </message>
    <message>
        <source>%1 around the shapes (the bounding box of the sites the shape parameters move, grown by a margin) at %2 µm, last iteration; scaled to its maximum %3 (white: 0, red: the maximum%4)</source>
        <translation>%1：形状周围（形状参数所移动位置的包围盒，向外扩展一圈边距），%2 µm，最后一次迭代；按其最大值 %3 缩放（白：0，红：最大值%4）</translation>
    </message>
    <message>
        <source>; blank: a source&apos;s sites (not sampled)</source>
        <translation>；空白：光源所在位置（未采样）</translation>
    </message>
    <message>
        <source>%1 at the sites the shape parameters move (the only ones the shape gradient samples), over their bounding box at %2 µm, last iteration; blank: not sampled; scaled to its maximum %3 (white: 0, red: the maximum%4)</source>
        <translation>%1：形状参数所移动的位置（形状梯度仅采样这些位置），在其包围盒内，%2 µm，最后一次迭代；空白：未采样；按其最大值 %3 缩放（白：0，红：最大值%4）</translation>
    </message>
</context>
<context>
    <name>golightly::app::Language</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The language changes when GoLightly is started again.</source>
        <translation>语言将在下次启动 GoLightly 时生效。</translation>
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
        <translation>%1 像素/µm   网格 %2 µm</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>打开(&amp;O)...</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As...</source>
        <translation>另存为(&amp;A)...</translation>
    </message>
    <message>
        <source>&amp;Import GoLightly Bitmap Model...</source>
        <translation>导入 GoLightly 位图模型(&amp;I)...</translation>
    </message>
    <message>
        <source>Export Canvas as &amp;PNG...</source>
        <translation>将画布导出为 &amp;PNG...</translation>
    </message>
    <message>
        <source>Export Canvas as S&amp;VG...</source>
        <translation>将画布导出为 S&amp;VG...</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>GoLightly projects (*.glproj);;All files (*)</source>
        <translation>GoLightly 项目 (*.glproj);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation>项目另存为</translation>
    </message>
    <message>
        <source>GoLightly projects (*.glproj)</source>
        <translation>GoLightly 项目 (*.glproj)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation>复制副本(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;1:1 (one cell per pixel)</source>
        <translation>&amp;1:1（每像素一个网格单元）</translation>
    </message>
    <message>
        <source>Show &amp;Grid</source>
        <translation>显示网格(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Snap to Grid and Vertices</source>
        <translation>吸附到网格和顶点(&amp;S)</translation>
    </message>
    <message>
        <source>Structure &amp;Preview (as the solver sees it)</source>
        <translation>结构预览（求解器所见）(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Select / Move</source>
        <translation>选择/移动</translation>
    </message>
    <message>
        <source>Rectangle</source>
        <translation>矩形</translation>
    </message>
    <message>
        <source>Ellipse</source>
        <translation>椭圆</translation>
    </message>
    <message>
        <source>Polygon</source>
        <translation>多边形</translation>
    </message>
    <message>
        <source>Ring</source>
        <translation>圆环</translation>
    </message>
    <message>
        <source>Waveguide Path</source>
        <translation>波导路径</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>画笔</translation>
    </message>
    <message>
        <source>Eraser</source>
        <translation>橡皮擦</translation>
    </message>
    <message>
        <source>Point Source</source>
        <translation>点光源</translation>
    </message>
    <message>
        <source>Line Source</source>
        <translation>线光源</translation>
    </message>
    <message>
        <source>Region Source</source>
        <translation>区域光源</translation>
    </message>
    <message>
        <source>Flux Monitor</source>
        <translation>通量监视器</translation>
    </message>
    <message>
        <source>Time Probe</source>
        <translation>时域探针</translation>
    </message>
    <message>
        <source>DFT Field Region</source>
        <translation>DFT 场区域</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About GoLightly</source>
        <translation>关于 GoLightly(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>Tool Options</source>
        <translation>工具选项</translation>
    </message>
    <message>
        <source>Path width</source>
        <translation>路径宽度</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source>Bend radius</source>
        <translation>弯曲半径</translation>
    </message>
    <message>
        <source>Ring inner/outer</source>
        <translation>圆环内/外径</translation>
    </message>
    <message>
        <source>Hardness</source>
        <translation>硬度</translation>
    </message>
    <message>
        <source>Tool: %1</source>
        <translation>工具：%1</translation>
    </message>
    <message>
        <source>%1%2 - GoLightly</source>
        <translation>%1%2 - GoLightly</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>保存项目</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>清除列表</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <source>GoLightly did not shut down cleanly. Unsaved work of &quot;%1&quot; was autosaved at %2.

Recover it?</source>
        <translation>GoLightly 未正常关闭。“%1”中未保存的工作已于 %2 自动保存。

是否恢复？</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Recovery failed</source>
        <translation>恢复失败</translation>
    </message>
    <message>
        <source>The recovery file could not be read:

%1</source>
        <translation>无法读取恢复文件：

%1</translation>
    </message>
    <message>
        <source>Paste shape</source>
        <translation>粘贴形状</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export canvas as SVG</source>
        <translation>将画布导出为 SVG</translation>
    </message>
    <message>
        <source>Export canvas as PNG</source>
        <translation>将画布导出为 PNG</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>GoLightly canvas export, %1 px per µm</source>
        <translation>GoLightly 画布导出，每 µm %1 像素</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>%1 is not a readable image.</source>
        <translation>%1 不是可读取的图像。</translation>
    </message>
    <message>
        <source>Import bitmap model</source>
        <translation>导入位图模型</translation>
    </message>
    <message>
        <source>Import GoLightly bitmap model</source>
        <translation>导入 GoLightly 位图模型</translation>
    </message>
    <message>
        <source>Images (*.png *.bmp *.tif *.tiff);;All files (*)</source>
        <translation>图像 (*.png *.bmp *.tif *.tiff);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Bitmap model</source>
        <translation>位图模型</translation>
    </message>
    <message>
        <source>%1 µm</source>
        <translation>%1 µm</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>%1 x %2 pixels</source>
        <translation>%1 × %2 像素</translation>
    </message>
    <message>
        <source>eps at green = 255</source>
        <translation>绿色 = 255 处的 eps</translation>
    </message>
    <message>
        <source>Physical width</source>
        <translation>物理宽度</translation>
    </message>
    <message>
        <source>Physical height</source>
        <translation>物理高度</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>继续(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Show &amp;Field View</source>
        <translation>显示场视图(&amp;F)</translation>
    </message>
    <message>
        <source>Open Run &amp;Results...</source>
        <translation>打开运行结果(&amp;R)...</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source> Field </source>
        <translation> 场 </translation>
    </message>
    <message>
        <source>Field quantity shown while running</source>
        <translation>运行时显示的场分量</translation>
    </message>
    <message>
        <source>Auto scale</source>
        <translation>自动标度</translation>
    </message>
    <message>
        <source>Fixed colour scale: half range (symmetric)</source>
        <translation>固定色标：半幅范围（对称）</translation>
    </message>
    <message>
        <source> Frames/s </source>
        <translation> 帧/秒 </translation>
    </message>
    <message>
        <source>Frames per second sent by the solver (0: none)</source>
        <translation>求解器每秒发送的帧数（0：不发送）</translation>
    </message>
    <message>
        <source>Open run results</source>
        <translation>打开运行结果</translation>
    </message>
    <message>
        <source> (paused)</source>
        <translation>（已暂停）</translation>
    </message>
    <message>
        <source>%1 Results: %2</source>
        <translation>%1 结果：%2</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <source>A run is going already.</source>
        <translation>已有运行正在进行。</translation>
    </message>
    <message>
        <source>Compiling...</source>
        <translation>正在编译...</translation>
    </message>
    <message>
        <source>&amp;Live Edit</source>
        <translation>实时编辑(&amp;L)</translation>
    </message>
    <message>
        <source>Live edit: while a run is going, painting or moving shapes updates the solver&apos;s materials and the wave responds (the spectra are then not comparable)</source>
        <translation>实时编辑：运行期间绘制或移动形状会更新求解器的材料，波随之响应（此时频谱不可比较）</translation>
    </message>
    <message>
        <source>Live edit</source>
        <translation>实时编辑</translation>
    </message>
    <message>
        <source>Live edit %1 applied to the run %2 ms after the edit</source>
        <translation>实时编辑 %1 已在编辑后 %2 ms 应用于运行</translation>
    </message>
    <message>
        <source>Live edit not applied: %1</source>
        <translation>实时编辑未应用：%1</translation>
    </message>
    <message>
        <source>Field frames: %1</source>
        <translation>场图像：%1</translation>
    </message>
    <message>
        <source>Import S&amp;TEP...</source>
        <translation>导入 S&amp;TEP...</translation>
    </message>
    <message>
        <source>Re-import STEP of the Selected Part...</source>
        <translation>重新导入所选部件的 STEP...</translation>
    </message>
    <message>
        <source>Import STEP</source>
        <translation>导入 STEP</translation>
    </message>
    <message>
        <source>STEP files (*.step *.stp *.STEP *.STP);;All files (*)</source>
        <translation>STEP 文件 (*.step *.stp *.STEP *.STP);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Re-import STEP</source>
        <translation>重新导入 STEP</translation>
    </message>
    <message>
        <source>Select an imported STEP part first.</source>
        <translation>请先选择一个已导入的 STEP 部件。</translation>
    </message>
    <message>
        <source>Reading %1...</source>
        <translation>正在读取 %1...</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>The language changes when the run ends (or is stopped).</source>
        <translation>运行结束（或停止）后切换语言。</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Start Page</source>
        <translation>起始页(&amp;S)</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Tool keys work wherever the focus is, except while typing in a field; Esc in a dock returns to the canvas. Space + drag or the middle button pans.</source>
        <translation>工具快捷键在任何位置都有效（在输入框中输入时除外）；在停靠窗口中按 Esc 返回画布。按住空格拖动或按鼠标中键可平移视图。</translation>
    </message>
    <message>
        <source>Reference run</source>
        <translation>参考运行</translation>
    </message>
    <message>
        <source>Main run</source>
        <translation>主运行</translation>
    </message>
    <message>
        <source>Reference run (normalization)</source>
        <translation>参考运行（归一化）</translation>
    </message>
    <message>
        <source>at most %1</source>
        <translation>最多 %1</translation>
    </message>
    <message>
        <source>%1: %2 fs, step %3; %4; ETA %5; %6 Mcells/s%7</source>
        <translation>%1：%2 fs，第 %3 步；%4；剩余 %5；%6 百万网格单元/秒%7</translation>
    </message>
    <message numerus="yes">
        <source>Not started: %n problem(s) to fix.</source>
        <translation>
            <numerusform>未开始：需修复 %n 个问题。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot run</source>
        <translation>无法运行</translation>
    </message>
    <message>
        <source>The run cannot start until these are fixed:

%1</source>
        <translation>修复以下问题后才能开始运行：

%1</translation>
    </message>
    <message>
        <source>The run could not start.</source>
        <translation>运行无法开始。</translation>
    </message>
    <message>
        <source>Saved results of %1 (%2). </source>
        <translation>%1 的已保存结果（%2）。</translation>
    </message>
    <message>
        <source>Import &amp;GDS...</source>
        <translation>导入 &amp;GDS...</translation>
    </message>
    <message>
        <source>&amp;Export GDS...</source>
        <translation>导出 GDS(&amp;E)...</translation>
    </message>
    <message>
        <source>Import GDS</source>
        <translation>导入 GDS</translation>
    </message>
    <message>
        <source>GDSII files (*.gds *.gds2 *.gdsii *.GDS);;All files (*)</source>
        <translation>GDSII 文件 (*.gds *.gds2 *.gdsii *.GDS);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export GDS</source>
        <translation>导出 GDS</translation>
    </message>
    <message>
        <source>GDSII files (*.gds)</source>
        <translation>GDSII 文件 (*.gds)</translation>
    </message>
    <message>
        <source>Cell name</source>
        <translation>单元名称</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>3D view</source>
        <translation>3D 视图</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source> Slice </source>
        <translation> 切片 </translation>
    </message>
    <message>
        <source>The plane of the 3D grid the field view shows (changes a running run at once)</source>
        <translation>场视图显示的 3D 网格平面（对正在进行的运行立即生效）</translation>
    </message>
    <message>
        <source>Position of the slice along its normal</source>
        <translation>切片沿其法向的位置</translation>
    </message>
    <message>
        <source>Slice Back</source>
        <translation>切片后移</translation>
    </message>
    <message>
        <source>Slice Forward</source>
        <translation>切片前移</translation>
    </message>
    <message>
        <source>Sphere (3D)</source>
        <translation>球体 (3D)</translation>
    </message>
    <message>
        <source>Box (3D)</source>
        <translation>长方体 (3D)</translation>
    </message>
    <message>
        <source>TF/SF Source Box</source>
        <translation>TF/SF 光源盒</translation>
    </message>
    <message>
        <source>Flux Box Monitor</source>
        <translation>通量盒监视器</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>示例(&amp;X)</translation>
    </message>
    <message>
        <source>Slice %1 at %2 = %3 µm</source>
        <translation>切片 %1，位于 %2 = %3 µm</translation>
    </message>
    <message>
        <source>Set slice</source>
        <translation>设置切片</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Compute &amp;S-parameters</source>
        <translation>计算 S 参数(&amp;S)</translation>
    </message>
    <message>
        <source>One run per port and mode of the project&apos;s ports; |S_ij| and phase in the S-parameters dock (%1)</source>
        <translation>对项目的每个端口和每个模式各运行一次；|S_ij| 和相位显示在 S 参数面板中（%1）</translation>
    </message>
    <message>
        <source>Cancel S-parameters</source>
        <translation>取消 S 参数计算</translation>
    </message>
    <message>
        <source>Opened the design %1</source>
        <translation>已打开设计 %1</translation>
    </message>
    <message>
        <source>Tool keys work on the canvas: Esc returns the keys to it.</source>
        <translation>工具快捷键在画布上有效：按 Esc 将按键交还画布。</translation>
    </message>
    <message>
        <source>Name the project</source>
        <translation>命名项目</translation>
    </message>
    <message>
        <source>Results of %1 (run before the first save). </source>
        <translation>%1 的结果（首次保存之前的运行）。</translation>
    </message>
    <message>
        <source>Results: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <source>Saved %1 with the results made before the first save: %2</source>
        <translation>已保存 %1，并附带首次保存之前得到的结果：%2</translation>
    </message>
    <message>
        <source>Saved %1; the results made before the first save stay in %2 (the project&apos;s results folder exists already)</source>
        <translation>已保存 %1；首次保存之前得到的结果仍保留在 %2（项目的结果文件夹已存在）</translation>
    </message>
    <message>
        <source>The fields diverged here: %1</source>
        <translation>场在此处发散：%1</translation>
    </message>
    <message>
        <source>%1 is read-only (an installed example): the results go to %2</source>
        <translation>%1 为只读（已安装的示例）：结果将写入 %2</translation>
    </message>
    <message>
        <source>Mode Monitor</source>
        <translation>模式监视器</translation>
    </message>
    <message>
        <source>Stop picture</source>
        <translation>停止场图</translation>
    </message>
    <message>
        <source>The field picture is a second run: wait for this run to end.</source>
        <translation>场图是第二次运行：请等待本次运行结束。</translation>
    </message>
    <message>
        <source>%1: compiling...</source>
        <translation>%1：正在编译...</translation>
    </message>
    <message>
        <source>Field picture of %1 (the real part at its frequency)</source>
        <translation>%1 的场图（该频率下的实部）</translation>
    </message>
    <message>
        <source>Resonance field picture</source>
        <translation>谐振场图</translation>
    </message>
    <message>
        <source>Optimize (&amp;adjoint)</source>
        <translation>优化（伴随）(&amp;A)</translation>
    </message>
    <message>
        <source>Design Region</source>
        <translation>设计区域</translation>
    </message>
    <message>
        <source>Optimize the design (a design region&apos;s density or the shape parameters) with adjoint gradients; live in the Inverse Design dock (%1)</source>
        <translation>用伴随梯度优化设计（设计区域的密度或形状参数）；在逆向设计面板中实时显示（%1）</translation>
    </message>
</context>
<context>
    <name>golightly::app::ModeViewerDock</name>
    <message>
        <source>Port Modes</source>
        <translation>端口模式</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source> modes</source>
        <translation> 个模式</translation>
    </message>
    <message>
        <source>Solve</source>
        <translation>求解</translation>
    </message>
    <message>
        <source>Wavelength</source>
        <translation>波长</translation>
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
        <translation>|E_w|（沿端口法向）</translation>
    </message>
    <message>
        <source>Permittivity</source>
        <translation>介电常数</translation>
    </message>
    <message>
        <source>Picture</source>
        <translation>显示内容</translation>
    </message>
    <message>
        <source>Pick a port and Solve: its modes before any run.</source>
        <translation>选择端口并点击“求解”：无需运行即可查看其模式。</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
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
        <translation>TE 占比</translation>
    </message>
    <message>
        <source>The project has no ports (top-level &quot;ports&quot;, see the user guide).</source>
        <translation>项目没有端口（顶层“ports”字段，见用户指南）。</translation>
    </message>
    <message>
        <source>Solving the modes of port %1 at %2 µm...</source>
        <translation>正在求解端口 %1 在 %2 µm 处的模式...</translation>
    </message>
    <message>
        <source>Cannot solve the modes: %1</source>
        <translation>无法求解模式：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n mode(s) of the %1-%2 cross-section at %3 µm (full-vector, PEC window).</source>
        <translation>
            <numerusform>%1-%2 截面在 %3 µm 处的 %n 个模式（全矢量，PEC 窗口）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n guided slab mode(s) of the port line at %1 µm (as the mode source and the S-parameter runs see them).</source>
        <translation>
            <numerusform>端口线在 %1 µm 处的 %n 个平板导模（与模式光源和 S 参数运行所用的相同）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 along the port (µm)</source>
        <translation>沿端口的 %1 (µm)</translation>
    </message>
    <message>
        <source>Mode %1 field (arbitrary units)</source>
        <translation>模式 %1 的场（任意单位）</translation>
    </message>
    <message>
        <source>%1 (µm)</source>
        <translation>%1 (µm)</translation>
    </message>
    <message numerus="yes">
        <source>%n port(s). Pick one and a wavelength, then Solve: its modes before any run.</source>
        <translation>
            <numerusform>%n 个端口。选择一个端口和波长，然后点击求解：在任何运行之前查看其模式。</numerusform>
        </translation>
    </message>
    <message>
        <source>Solved before the last edit (Solve again for the current project): %1</source>
        <translation>在最近一次编辑之前求解（请为当前项目重新求解）：%1</translation>
    </message>
    <message>
        <source>The modes of the previous project were discarded.</source>
        <translation>上一个项目的模式已丢弃。</translation>
    </message>
    <message>
        <source>by index (modes)</source>
        <translation>按索引 (modes)</translation>
    </message>
    <message>
        <source>by target n_eff</source>
        <translation>按目标 n_eff</translation>
    </message>
    <message>
        <source>How the port keeps the mode picked: its index in this list, or its effective index as the port&apos;s target_neff (3D)</source>
        <translation>端口如何保存所选模式：其在此列表中的索引，或其有效折射率作为端口的 target_neff（3D）</translation>
    </message>
    <message>
        <source>Use for the port</source>
        <translation>用于该端口</translation>
    </message>
    <message>
        <source>Make the mode shown the port&apos;s mode (also: double-click its picture)</source>
        <translation>将显示的模式设为端口的模式（也可双击其图像）</translation>
    </message>
    <message>
        <source>Pick</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>Im n_eff</source>
        <translation>Im n_eff</translation>
    </message>
    <message>
        <source>Loss (dB/cm)</source>
        <translation>损耗 (dB/cm)</translation>
    </message>
    <message>
        <source>Bend loss (dB/90°)</source>
        <translation>弯曲损耗 (dB/90°)</translation>
    </message>
    <message>
        <source>Port %1: target n_eff %2</source>
        <translation>端口 %1：目标 n_eff %2</translation>
    </message>
    <message>
        <source>Port %1: mode %2</source>
        <translation>端口 %1：模式 %2</translation>
    </message>
    <message>
        <source>not resolved</source>
        <translation>未解析</translation>
    </message>
    <message>
        <source>The port&apos;s PML on the outer side of the bend begins %1 µm from the guide, before the radiation caustic (where n_clad·(1 + x/R) reaches n_eff). n_eff holds; for the bend loss widen the port on the outer side of the bend.</source>
        <translation>端口在弯曲外侧的 PML 距波导 %1 µm 处开始，位于辐射焦散线之前（即 n_clad·(1 + x/R) 达到 n_eff 处）。n_eff 有效；要得到弯曲损耗，请在弯曲外侧加宽端口。</translation>
    </message>
</context>
<context>
    <name>golightly::app::ProgressModel</name>
    <message>
        <source>stops at the step limit (%1 steps)</source>
        <translation>在步数上限（%1 步）处停止</translation>
    </message>
    <message>
        <source>stops at the time limit (%1 fs)</source>
        <translation>在时间上限（%1 fs）处停止</translation>
    </message>
    <message>
        <source>the probe&apos;s decay</source>
        <translation>探针信号衰减</translation>
    </message>
    <message>
        <source>energy decay</source>
        <translation>能量衰减</translation>
    </message>
    <message>
        <source>, or when the resonance estimates converge (%1)</source>
        <translation>，或在谐振估计收敛时（%1）</translation>
    </message>
    <message>
        <source>stops at %1 dB %2 (now %3 dB)</source>
        <translation>在 %1 dB %2 处停止（当前 %3 dB）</translation>
    </message>
    <message>
        <source>stops at %1 dB %2 after the sources end (%3 fs)</source>
        <translation>光源结束（%3 fs）后在 %1 dB %2 处停止</translation>
    </message>
    <message>
        <source>, before %1 dB %2: now %3 dB, falling too slowly to get there first</source>
        <translation>，早于 %1 dB %2：当前 %3 dB，下降太慢，无法先达到</translation>
    </message>
</context>
<context>
    <name>golightly::app::ResonancePictureRun</name>
    <message>
        <source>%1: %2 fs, step %3</source>
        <translation>%1：%2 fs，第 %3 步</translation>
    </message>
    <message>
        <source>The field picture of %1 failed: %2</source>
        <translation>%1 的场图失败：%2</translation>
    </message>
    <message>
        <source>The field picture of %1 was stopped.</source>
        <translation>%1 的场图已停止。</translation>
    </message>
    <message>
        <source>The field picture of %1 holds no field.</source>
        <translation>%1 的场图不含场。</translation>
    </message>
    <message>
        <source>Resonance %1 µm (Q %2, %3)</source>
        <translation>谐振 %1 µm（Q %2，%3）</translation>
    </message>
    <message>
        <source>A field picture is being made; stop it first.</source>
        <translation>正在生成场图；请先停止它。</translation>
    </message>
    <message>
        <source>The field picture of %1 cannot start: %2</source>
        <translation>%1 的场图无法启动：%2</translation>
    </message>
    <message>
        <source>The field picture of %1 cannot start.</source>
        <translation>%1 的场图无法启动。</translation>
    </message>
</context>
<context>
    <name>golightly::app::SParamsDock</name>
    <message>
        <source>S-parameters</source>
        <translation>S 参数</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>One run per port and mode of the project&apos;s ports (Run &gt; Compute S-parameters)</source>
        <translation>对项目的每个端口和每个模式各运行一次（运行 &gt; 计算 S 参数）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Open...</source>
        <translation>打开...</translation>
    </message>
    <message>
        <source>Show a sparams.csv written by golightly-cli sparams or an earlier computation</source>
        <translation>显示由 golightly-cli sparams 或先前计算写出的 sparams.csv</translation>
    </message>
    <message>
        <source>No S-parameters yet: give the project ports, then Run &gt; Compute S-parameters.</source>
        <translation>尚无 S 参数：先为项目添加端口，然后选择 运行 &gt; 计算 S 参数。</translation>
    </message>
    <message>
        <source>Open S-parameters</source>
        <translation>打开 S 参数</translation>
    </message>
    <message>
        <source>S-parameter table (sparams.csv *.csv)</source>
        <translation>S 参数表 (sparams.csv *.csv)</translation>
    </message>
    <message>
        <source>S-parameters are being computed already.</source>
        <translation>S 参数已在计算中。</translation>
    </message>
    <message>
        <source>Cannot compute S-parameters: %1</source>
        <translation>无法计算 S 参数：%1</translation>
    </message>
    <message>
        <source>port run 1 of %1</source>
        <translation>端口运行 1/%1</translation>
    </message>
    <message numerus="yes">
        <source>Computing S-parameters: %n port run(s)...</source>
        <translation>
            <numerusform>正在计算 S 参数：%n 次端口运行...</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling...</source>
        <translation>正在取消...</translation>
    </message>
    <message>
        <source>port run %1 of %2 — %3 % — ETA %4</source>
        <translation>端口运行 %1/%2 — %3 % — 剩余 %4</translation>
    </message>
    <message>
        <source>done in %1</source>
        <translation>完成，用时 %1</translation>
    </message>
    <message numerus="yes">
        <source>S-parameters of %n port-mode(s), %1 wavelengths; written to %2</source>
        <translation>
            <numerusform>%n 个端口模式、%1 个波长的 S 参数；已写入 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n of %1 port run(s); the plots show the finished columns.</source>
        <translation>
            <numerusform>已在完成 %1 次端口运行中的 %n 次后取消；图中显示已完成的列。</numerusform>
        </translation>
    </message>
    <message>
        <source>S-parameters failed: %1</source>
        <translation>S 参数计算失败：%1</translation>
    </message>
    <message>
        <source>Cannot read S-parameters: %1</source>
        <translation>无法读取 S 参数：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n port-mode(s), %2 wavelengths</source>
        <translation>
            <numerusform>%1：%n 个端口模式，%2 个波长</numerusform>
        </translation>
    </message>
    <message>
        <source>These S-parameters are of %1, not of the open project.</source>
        <translation>这些 S 参数属于 %1，而不是当前打开的项目。</translation>
    </message>
    <message>
        <source>an untitled project</source>
        <translation>一个未命名项目</translation>
    </message>
    <message>
        <source>Computed before the last edit: Compute again for the current geometry.</source>
        <translation>在最近一次编辑之前计算：请为当前几何结构重新计算。</translation>
    </message>
</context>
<context>
    <name>golightly::app::StartPage</name>
    <message>
        <source>Quick start: a waveguide bend</source>
        <translation>快速入门：波导弯曲</translation>
    </message>
    <message>
        <source>Fresnel slab (R = 0.25)</source>
        <translation>菲涅耳平板（R = 0.25）</translation>
    </message>
    <message>
        <source>90-degree waveguide bend</source>
        <translation>90 度波导弯曲</translation>
    </message>
    <message>
        <source>Ring resonator</source>
        <translation>环形谐振器</translation>
    </message>
    <message>
        <source>Gold slit grating</source>
        <translation>金狭缝光栅</translation>
    </message>
    <message>
        <source>STEP import: ring filter</source>
        <translation>STEP 导入：环形滤波器</translation>
    </message>
    <message>
        <source>&lt;h1&gt;Welcome to GoLightly&lt;/h1&gt;&lt;p&gt;Draw a photonic device on layers, press &lt;b&gt;Run (F5)&lt;/b&gt; and watch the light travel through it while the transmission and reflection spectra fill in.&lt;/p&gt;</source>
        <translation>&lt;h1&gt;欢迎使用 GoLightly&lt;/h1&gt;&lt;p&gt;在图层上绘制光子器件，按 &lt;b&gt;运行 (F5)&lt;/b&gt;，观察光在其中传播，同时透射谱和反射谱逐步生成。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>New Project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <source>A new project: a 10 x 8 µm domain with silicon and silica (Ctrl+N)</source>
        <translation>新项目：10 x 8 µm 计算区域，含硅和二氧化硅 (Ctrl+N)</translation>
    </message>
    <message>
        <source>Open Project...</source>
        <translation>打开项目...</translation>
    </message>
    <message>
        <source>User Guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <source>The first steps, the tools and the run, explained (F1)</source>
        <translation>入门步骤、工具和运行说明 (F1)</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Examples&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;示例&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>The examples folder was not found.</source>
        <translation>未找到示例文件夹。</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Recent projects&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;最近的项目&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>No recent projects yet.</source>
        <translation>暂无最近的项目。</translation>
    </message>
    <message>
        <source>Glass slab at 30° (Bloch)</source>
        <translation>30° 入射的玻璃平板（Bloch）</translation>
    </message>
    <message>
        <source>Si grating: diffraction orders</source>
        <translation>硅光栅：衍射级次</translation>
    </message>
    <message>
        <source>Si grating lit at 20°</source>
        <translation>20° 入射的硅光栅</translation>
    </message>
    <message>
        <source>Inverse design: a waveguide bend</source>
        <translation>逆向设计：波导弯曲</translation>
    </message>
    <message>
        <source>Inverse design: a TE0 to TE1 mode converter</source>
        <translation>逆向设计：TE0 到 TE1 模式转换器</translation>
    </message>
    <message>
        <source> (3D)</source>
        <translation> (3D)</translation>
    </message>
    <message>
        <source>Dipole over a ground plane</source>
        <translation>接地平面上方的偶极子</translation>
    </message>
    <message>
        <source>Gold nanosphere</source>
        <translation>金纳米球</translation>
    </message>
    <message>
        <source>Gold nanosphere, B-CALM case</source>
        <translation>金纳米球，B-CALM 算例</translation>
    </message>
    <message>
        <source>Gold nanosphere, B-CALM case, %1 nm cells</source>
        <translation>金纳米球，B-CALM 算例，%1 nm 网格单元</translation>
    </message>
    <message>
        <source>Scattering by a dielectric sphere</source>
        <translation>介质球的散射</translation>
    </message>
    <message>
        <source>Si strip: S-parameters</source>
        <translation>硅条形波导：S 参数</translation>
    </message>
    <message>
        <source>Si strip taper, mirror symmetry</source>
        <translation>硅条形锥形波导，镜像对称</translation>
    </message>
    <message>
        <source>Si strip taper</source>
        <translation>硅条形锥形波导</translation>
    </message>
</context>
<context>
    <name>golightly::app::SweepDock</name>
    <message>
        <source>Sweep / Optimize</source>
        <translation>扫描 / 优化</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Vary</source>
        <translation>可变</translation>
    </message>
    <message>
        <source>From</source>
        <translation>起始值</translation>
    </message>
    <message>
        <source>To</source>
        <translation>终止值</translation>
    </message>
    <message>
        <source>Points</source>
        <translation>点数</translation>
    </message>
    <message>
        <source>A number (µm, fs or no unit) or an expression such as 250 nm or 2 * w</source>
        <translation>数值（µm、fs 或无单位）或表达式，例如 250 nm 或 2 * w</translation>
    </message>
    <message>
        <source>Sweep: values from From to To inclusive. Optimize: From..To are the bounds.</source>
        <translation>扫描：取从“起始值”到“终止值”（含两端）的值。优化：起始值..终止值为取值边界。</translation>
    </message>
    <message>
        <source>Add Parameter...</source>
        <translation>添加参数...</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Add Parameter</source>
        <translation>添加参数</translation>
    </message>
    <message>
        <source>Name (letters, digits, _):</source>
        <translation>名称（字母、数字、_）：</translation>
    </message>
    <message>
        <source>Value of %1 (number or expression):</source>
        <translation>%1 的值（数值或表达式）：</translation>
    </message>
    <message>
        <source>The flux monitor whose (normalized) value is plotted</source>
        <translation>绘制其（归一化）值的通量监视器</translation>
    </message>
    <message>
        <source>at</source>
        <translation>在</translation>
    </message>
    <message>
        <source>Sweep plots</source>
        <translation>扫描绘制</translation>
    </message>
    <message>
        <source>An expression over the monitors at wavelengths in µm and the parameters, e.g. T(1.55) or min(T(1.5), T(1.6)) - R(1.55)</source>
        <translation>由各监视器在给定波长（µm）处的值和参数构成的表达式，例如 T(1.55) 或 min(T(1.5), T(1.6)) - R(1.55)</translation>
    </message>
    <message>
        <source>Minimize</source>
        <translation>最小化</translation>
    </message>
    <message>
        <source>Optimize</source>
        <translation>优化</translation>
    </message>
    <message>
        <source>at most </source>
        <translation>最多 </translation>
    </message>
    <message>
        <source> runs</source>
        <translation> 次运行</translation>
    </message>
    <message>
        <source>bobyqa, cobyla, neldermead, sbplx: local; direct, crs2, esch, isres: global (NLopt)</source>
        <translation>bobyqa、cobyla、neldermead、sbplx：局部；direct、crs2、esch、isres：全局 (NLopt)</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Run every design of the varied parameters&apos; ranges</source>
        <translation>运行可变参数范围内的每个设计</translation>
    </message>
    <message>
        <source>Search the varied parameters&apos; ranges for the best objective</source>
        <translation>在可变参数的范围内搜索最佳目标值</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Tick Vary for one or two parameters, then Sweep or Optimize.</source>
        <translation>为一个或两个参数勾选“可变”，然后点击“扫描”或“优化”。</translation>
    </message>
    <message>
        <source>Click a point to open that design</source>
        <translation>单击某个点可打开该设计</translation>
    </message>
    <message>
        <source>= %1</source>
        <translation>= %1</translation>
    </message>
    <message>
        <source>%1: not a number</source>
        <translation>%1：不是数值</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid parameter name (letters, digits and _, not starting with a digit; not a unit or function name)</source>
        <translation>“%1”不是有效的参数名（由字母、数字和 _ 组成，不能以数字开头；不能是单位名或函数名）</translation>
    </message>
    <message>
        <source>The project has a parameter %1 already.</source>
        <translation>项目中已有参数 %1。</translation>
    </message>
    <message>
        <source>Add parameter %1</source>
        <translation>添加参数 %1</translation>
    </message>
    <message>
        <source>Parameter %1 added.</source>
        <translation>已添加参数 %1。</translation>
    </message>
    <message>
        <source>Remove parameter %1</source>
        <translation>移除参数 %1</translation>
    </message>
    <message>
        <source>Cannot remove %1: %2</source>
        <translation>无法移除 %1：%2</translation>
    </message>
    <message>
        <source>Parameter %1 removed.</source>
        <translation>已移除参数 %1。</translation>
    </message>
    <message>
        <source>Set parameter %1</source>
        <translation>设置参数 %1</translation>
    </message>
    <message>
        <source>A sweep or optimization is running already.</source>
        <translation>已有扫描或优化正在进行。</translation>
    </message>
    <message>
        <source>Tick Vary for at least one parameter (add one with Add Parameter... if the project has none).</source>
        <translation>请至少为一个参数勾选“可变”（若项目没有参数，请用“添加参数...”添加）。</translation>
    </message>
    <message>
        <source>%1: From must be below To.</source>
        <translation>%1：起始值必须小于终止值。</translation>
    </message>
    <message>
        <source>The project has no flux monitor to plot.</source>
        <translation>项目中没有可绘制的通量监视器。</translation>
    </message>
    <message>
        <source>Give an objective, e.g. T(1.55).</source>
        <translation>请给出目标函数，例如 T(1.55)。</translation>
    </message>
    <message>
        <source>starting...</source>
        <translation>正在启动...</translation>
    </message>
    <message>
        <source>Optimizing %1 over %2 (at most %3 runs) into %4</source>
        <translation>正在针对 %2 优化 %1（最多 %3 次运行），输出到 %4</translation>
    </message>
    <message numerus="yes">
        <source>Sweeping %1 over %n design(s) into %2</source>
        <translation>
            <numerusform>正在扫描 %1，共 %n 个设计，输出到 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Best: %1; objective %2 at run %3 of %4 (%5). Click a point to open that design.</source>
        <translation>最佳：%1；目标值 %2，来自第 %3/%4 次运行（%5）。单击某个点可打开该设计。</translation>
    </message>
    <message>
        <source>%1 designs: %2 ran, %3 reused, %4 failed%5. Click a point to open that design.</source>
        <translation>%1 个设计：运行 %2 个，复用 %3 个，失败 %4 个%5。单击某个点可打开该设计。</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>，已取消</translation>
    </message>
    <message>
        <source>Cancelling: the running design stops, no other starts...</source>
        <translation>正在取消：停止正在运行的设计，不再启动其他设计...</translation>
    </message>
    <message>
        <source>run %1 of at most %2 — ETA %3</source>
        <translation>第 %1 次运行（最多 %2 次）— 剩余 %3</translation>
    </message>
    <message>
        <source>design %1 of %2 — ETA %3</source>
        <translation>设计 %1/%2 — 剩余 %3</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>done in %1</source>
        <translation>完成，用时 %1</translation>
    </message>
    <message>
        <source>finished with errors</source>
        <translation>完成，但有错误</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行序号</translation>
    </message>
    <message>
        <source>Design</source>
        <translation>设计序号</translation>
    </message>
    <message>
        <source>an untitled project</source>
        <translation>一个未命名项目</translation>
    </message>
    <message>
        <source>Optimization of %1, not of the open project.</source>
        <translation>%1 的优化结果，而不是当前打开的项目。</translation>
    </message>
    <message>
        <source>Sweep of %1, not of the open project.</source>
        <translation>%1 的扫描结果，而不是当前打开的项目。</translation>
    </message>
    <message>
        <source>Optimized before the last edit: the points are of the project as it was then.</source>
        <translation>在最近一次编辑之前优化：这些点属于当时的项目。</translation>
    </message>
    <message>
        <source>Swept before the last edit: the points are of the project as it was then.</source>
        <translation>在最近一次编辑之前扫描：这些点属于当时的项目。</translation>
    </message>
</context>
<context>
    <name>golightly::app::UserGuideViewer</name>
    <message>
        <source>GoLightly User Guide</source>
        <translation>GoLightly 用户指南</translation>
    </message>
    <message>
        <source>Back (Alt+Left)</source>
        <translation>后退 (Alt+Left)</translation>
    </message>
    <message>
        <source>Forward (Alt+Right)</source>
        <translation>前进 (Alt+Right)</translation>
    </message>
    <message>
        <source>The guide&apos;s first page</source>
        <translation>指南首页</translation>
    </message>
    <message>
        <source>Find in the guide (Ctrl+F, Enter: next)</source>
        <translation>在指南中查找（Ctrl+F，回车：下一个）</translation>
    </message>
    <message>
        <source>&lt;h2&gt;The user guide was not found&lt;/h2&gt;&lt;p&gt;GoLightly looks for &lt;code&gt;user-guide.md&lt;/code&gt; in &lt;code&gt;%1&lt;/code&gt; and &lt;code&gt;/usr/share/doc/golightly/&lt;/code&gt; (the package installs it there) and, when it runs from a build, in the source tree&apos;s &lt;code&gt;docs/&lt;/code&gt;.&lt;/p&gt;&lt;p&gt;The guide is also online: &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;h2&gt;未找到用户指南&lt;/h2&gt;&lt;p&gt;GoLightly 在 &lt;code&gt;%1&lt;/code&gt; 和 &lt;code&gt;/usr/share/doc/golightly/&lt;/code&gt;（软件包安装于此）中查找 &lt;code&gt;user-guide.md&lt;/code&gt;；从构建目录运行时，还会查找源码树的 &lt;code&gt;docs/&lt;/code&gt;。&lt;/p&gt;&lt;p&gt;指南也可在线阅读：&lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Not found: %1</source>
        <translation>未找到：%1</translation>
    </message>
    <message>
        <source>No program opens %1</source>
        <translation>没有程序可以打开 %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not in this page</source>
        <translation>本页中没有“%1”</translation>
    </message>
</context>
<context>
    <name>golightly::editor::BackgroundJob</name>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
</context>
<context>
    <name>golightly::editor::BoxItemTool</name>
    <message>
        <source>TF/SF Box</source>
        <translation>TF/SF 盒</translation>
    </message>
    <message>
        <source>Flux Box</source>
        <translation>通量盒</translation>
    </message>
    <message>
        <source>Drag a box: total field inside, scattered field outside (plane wave along +x)</source>
        <translation>拖出一个盒：内部为总场，外部为散射场（沿 +x 传播的平面波）</translation>
    </message>
    <message>
        <source>Drag a box: net outward flux, or absorption / scattering cross-sections</source>
        <translation>拖出一个盒：净向外通量，或吸收/散射截面</translation>
    </message>
</context>
<context>
    <name>golightly::editor::BrushTool</name>
    <message>
        <source>Erase</source>
        <translation>擦除</translation>
    </message>
    <message>
        <source>Paint</source>
        <translation>绘制</translation>
    </message>
    <message>
        <source>Eraser</source>
        <translation>橡皮擦</translation>
    </message>
    <message>
        <source>Brush</source>
        <translation>画笔</translation>
    </message>
    <message>
        <source>Drag to paint the current layer&apos;s material (size and hardness in the tool options)</source>
        <translation>拖动以绘制当前图层的材料（大小和硬度见工具选项）</translation>
    </message>
    <message>
        <source>The Eraser erases painted material only. To remove this drawn shape, select it (Select tool, V) and press Delete.</source>
        <translation>橡皮擦只擦除绘制的材料。要删除此绘制的形状，请选中它（选择工具，V）并按 Delete。</translation>
    </message>
    <message>
        <source>Nothing is painted on layer &quot;%1&quot;: the Eraser erases Brush strokes. To remove a drawn shape, select it (Select tool, V) and press Delete.</source>
        <translation>图层“%1”上没有绘制内容：橡皮擦只擦除画笔笔触。要删除绘制的形状，请选中它（选择工具，V）并按 Delete。</translation>
    </message>
    <message>
        <source>Drag to erase Brush strokes (size and hardness in the tool options). Drawn shapes: select and Delete</source>
        <translation>拖动以擦除画笔笔触（大小和硬度见工具选项）。绘制的形状：选中后按 Delete</translation>
    </message>
</context>
<context>
    <name>golightly::editor::Canvas</name>
    <message>
        <source>Structure preview: %1 x %2 cells, eps_r up to %3</source>
        <translation>结构预览：%1 × %2 个网格单元，eps_r 最大 %3</translation>
    </message>
    <message>
        <source>Structure preview unavailable: %1</source>
        <translation>结构预览不可用：%1</translation>
    </message>
    <message>
        <source>µm</source>
        <translation>µm</translation>
    </message>
    <message>
        <source>Re-import STEP...</source>
        <translation>重新导入 STEP...</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>port %1</source>
        <translation>端口 %1</translation>
    </message>
</context>
<context>
    <name>golightly::editor::DesignRegionTool</name>
    <message>
        <source>The design region must be at least one pixel across.</source>
        <translation>设计区域至少须有一个像素宽。</translation>
    </message>
    <message>
        <source>Move design region</source>
        <translation>移动设计区域</translation>
    </message>
    <message>
        <source>Draw design region</source>
        <translation>绘制设计区域</translation>
    </message>
    <message>
        <source>Design region</source>
        <translation>设计区域</translation>
    </message>
    <message>
        <source>Draw the design region first: fixed boxes lie inside it.</source>
        <translation>请先绘制设计区域：固定框位于其内部。</translation>
    </message>
    <message>
        <source>A fixed box must hold at least one whole pixel of the design region.</source>
        <translation>固定框必须至少包含设计区域的一个完整像素。</translation>
    </message>
    <message>
        <source>Add fixed solid box</source>
        <translation>添加固定实心框</translation>
    </message>
    <message>
        <source>Add fixed void box</source>
        <translation>添加固定空心框</translation>
    </message>
    <message>
        <source>Drag from corner to corner to draw the inverse-design region (its density is optimized by Run &gt; Optimize (adjoint)); Shift+drag inside it: a fixed solid box, Ctrl+drag: a fixed void box</source>
        <translation>从一角拖动到对角以绘制逆向设计区域（其密度由 运行 &gt; 优化（伴随）优化）；在其内部 Shift+拖动：固定实心框，Ctrl+拖动：固定空心框</translation>
    </message>
</context>
<context>
    <name>golightly::editor::DragShapeTool</name>
    <message>
        <source>Rectangle</source>
        <translation>矩形</translation>
    </message>
    <message>
        <source>Ellipse</source>
        <translation>椭圆</translation>
    </message>
    <message>
        <source>Ring</source>
        <translation>圆环</translation>
    </message>
    <message>
        <source>Draw %1</source>
        <translation>绘制%1</translation>
    </message>
    <message>
        <source>Drag from corner to corner to draw; the current layer&apos;s material fills it</source>
        <translation>从一角拖到对角进行绘制；以当前图层的材料填充</translation>
    </message>
</context>
<context>
    <name>golightly::editor::EditorDocument</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Add source</source>
        <translation>添加光源</translation>
    </message>
    <message>
        <source>Add monitor</source>
        <translation>添加监视器</translation>
    </message>
    <message>
        <source>Delete shape</source>
        <translation>删除形状</translation>
    </message>
    <message>
        <source>Delete source</source>
        <translation>删除光源</translation>
    </message>
    <message>
        <source>Delete monitor</source>
        <translation>删除监视器</translation>
    </message>
    <message>
        <source>Duplicate shape</source>
        <translation>复制形状</translation>
    </message>
    <message>
        <source>Move shape</source>
        <translation>移动形状</translation>
    </message>
    <message>
        <source>Move source</source>
        <translation>移动光源</translation>
    </message>
    <message>
        <source>Move monitor</source>
        <translation>移动监视器</translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <source>The project file could not be opened:

%1

The file was not changed, and this window keeps its current project.</source>
        <translation>无法打开项目文件：

%1

文件未被修改，此窗口保留当前项目。</translation>
    </message>
    <message>
        <source>Cannot save project</source>
        <translation>无法保存项目</translation>
    </message>
    <message>
        <source>The project could not be saved:

%1</source>
        <translation>无法保存项目：

%1</translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>Add port</source>
        <translation>添加端口</translation>
    </message>
    <message>
        <source>Delete port</source>
        <translation>删除端口</translation>
    </message>
    <message>
        <source>Move port</source>
        <translation>移动端口</translation>
    </message>
    <message>
        <source>Delete design region</source>
        <translation>删除设计区域</translation>
    </message>
    <message>
        <source>Move design region</source>
        <translation>移动设计区域</translation>
    </message>
</context>
<context>
    <name>golightly::editor::GdsImportDialog</name>
    <message>
        <source>No polygons on the ticked layers</source>
        <translation>所选图层上没有多边形</translation>
    </message>
    <message>
        <source>Import GDS</source>
        <translation>导入 GDS</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>Layer map...</source>
        <translation>图层映射...</translation>
    </message>
    <message>
        <source>Name the layers from a KLayout .lyp or a gdsfactory YAML layer map</source>
        <translation>按 KLayout .lyp 或 gdsfactory YAML 图层映射命名图层</translation>
    </message>
    <message>
        <source>Layer/datatype</source>
        <translation>图层/数据类型</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>元素</translation>
    </message>
    <message>
        <source>New layer</source>
        <translation>新图层</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Layer map</source>
        <translation>图层映射</translation>
    </message>
    <message>
        <source>Layer maps (*.lyp *.yaml *.yml);;All files (*)</source>
        <translation>图层映射 (*.lyp *.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read %1.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <source>%1 is larger than %2: too large to embed in a project.</source>
        <translation>%1 大于 %2：太大，无法嵌入项目。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 holds no cell.</source>
        <translation>%1 不含任何单元。</translation>
    </message>
    <message>
        <source>%1: %2 cells, database unit %3 nm</source>
        <translation>%1：%2 个单元，数据库单位 %3 nm</translation>
    </message>
    <message>
        <source>GDS %1</source>
        <translation>GDS %1</translation>
    </message>
    <message>
        <source>No GDS file is loaded.</source>
        <translation>未加载 GDS 文件。</translation>
    </message>
    <message>
        <source>Layer %1 needs a name and a material.</source>
        <translation>图层 %1 需要名称和材料。</translation>
    </message>
    <message>
        <source>Tick at least one layer.</source>
        <translation>请至少勾选一个图层。</translation>
    </message>
    <message>
        <source>Import GDS %1</source>
        <translation>导入 GDS %1</translation>
    </message>
    <message>
        <source>Export GDS</source>
        <translation>导出 GDS</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Into</source>
        <translation>导入到</translation>
    </message>
    <message>
        <source>Layer name</source>
        <translation>图层名称</translation>
    </message>
    <message>
        <source>z (µm)</source>
        <translation>z (µm)</translation>
    </message>
    <message>
        <source>A new layer, or an existing layer (it keeps its z range, sidewall and material)</source>
        <translation>新图层或已有图层（已有图层保留其 z 范围、侧壁和材料）</translation>
    </message>
    <message>
        <source>The z range of a new layer in a 3D project: z0, z1</source>
        <translation>3D 项目中新图层的 z 范围：z0, z1</translation>
    </message>
    <message>
        <source>whole domain</source>
        <translation>整个计算域</translation>
    </message>
    <message>
        <source>Layer %1: the z range &quot;%2&quot; is not two numbers z0, z1 (µm) with z0 &lt; z1.</source>
        <translation>图层 %1：z 范围“%2”不是满足 z0 &lt; z1 的两个数 z0, z1 (µm)。</translation>
    </message>
    <message>
        <source>%1 polygons, %2 x %3 µm (dashed: the domain)</source>
        <translation>%1 个多边形，%2 x %3 µm （虚线：计算区域）</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>放置</translation>
    </message>
    <message>
        <source>Centred in the domain</source>
        <translation>在计算区域中居中</translation>
    </message>
    <message>
        <source>At an offset</source>
        <translation>按偏移量</translation>
    </message>
    <message>
        <source>Centre the cell&apos;s bounding box in the domain, or move the file&apos;s coordinates by an offset (0, 0 keeps them)</source>
        <translation>将单元的包围盒置于计算区域中心，或按偏移量移动文件坐标（0, 0 保持不变）</translation>
    </message>
    <message>
        <source>Database unit</source>
        <translation>数据库单位</translation>
    </message>
    <message>
        <source>The length of one database unit: the file&apos;s UNITS record by default; change it only for a file written with a wrong unit (the shapes then keep the unit chosen)</source>
        <translation>一个数据库单位的长度：默认取文件的 UNITS 记录；仅当文件以错误单位写入时才更改（形状随后保留所选单位）</translation>
    </message>
    <message>
        <source>cell %1 x %2 µm, moved by (%3, %4) µm</source>
        <translation>单元 %1 x %2 µm，移动了 (%3, %4) µm</translation>
    </message>
    <message>
        <source>Not imported: with %1 %2.</source>
        <translation>未导入：含 %1 %2。</translation>
    </message>
    <message>
        <source>Layer &quot;%1&quot; has no GDS layer. Write it on layer/datatype (kept with the layer, so that importing the file again fills this layer):</source>
        <translation>图层“%1”没有 GDS 图层。写入到图层/数据类型（随图层保存，以便再次导入该文件时填充此图层）：</translation>
    </message>
    <message>
        <source>Layer &quot;%1&quot;: &quot;%2&quot; is not a GDS layer/datatype such as 3/0 (each 0 to 65535).</source>
        <translation>图层“%1”：“%2”不是形如 3/0 的 GDS 图层/数据类型（各为 0 到 65535）。</translation>
    </message>
    <message>
        <source>Set GDS layers</source>
        <translation>设置 GDS 图层</translation>
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
        <translation>（实体）</translation>
    </message>
    <message>
        <source> (all z)</source>
        <translation>（全部 z）</translation>
    </message>
    <message>
        <source>No layers</source>
        <translation>无图层</translation>
    </message>
    <message>
        <source>selection z %1 .. %2</source>
        <translation>选区 z %1 .. %2</translation>
    </message>
    <message>
        <source>z %1 .. %2 µm</source>
        <translation>z %1 .. %2 µm</translation>
    </message>
    <message>
        <source>Set layer z range</source>
        <translation>设置图层 z 范围</translation>
    </message>
    <message>
        <source>selection z %1</source>
        <translation>选区 z %1</translation>
    </message>
    <message>
        <source>Set z extent</source>
        <translation>设置 z 范围</translation>
    </message>
</context>
<context>
    <name>golightly::editor::LayerStackDock</name>
    <message>
        <source>Layer stack</source>
        <translation>图层堆叠</translation>
    </message>
    <message>
        <source>Cross-section of the layer stack (z to scale). Drag a layer&apos;s top or bottom edge to change its z range, its body to move it.</source>
        <translation>图层堆叠的截面（z 按比例）。拖动图层的上边或下边可更改其 z 范围，拖动图层本身可移动它。</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>图层</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>材料</translation>
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
        <translation>侧壁 (°)</translation>
    </message>
    <message>
        <source>Add background layer</source>
        <translation>添加背景图层</translation>
    </message>
    <message>
        <source>A substrate or cladding: the current layer&apos;s material over the whole xy domain, from z = 0 to half the domain height (edit z0, z1 below)</source>
        <translation>衬底或包层：当前图层的材料覆盖整个 xy 计算域，从 z = 0 到计算域高度的一半（在下方编辑 z0、z1）</translation>
    </message>
    <message>
        <source>Set layer z range</source>
        <translation>设置图层 z 范围</translation>
    </message>
    <message>
        <source>Set sidewall angle</source>
        <translation>设置侧壁角度</translation>
    </message>
    <message>
        <source>Set layer material</source>
        <translation>设置图层材料</translation>
    </message>
    <message>
        <source>background %1</source>
        <translation>背景 %1</translation>
    </message>
    <message>
        <source>air</source>
        <translation>空气</translation>
    </message>
    <message>
        <source>Spheres and boxes carry their own z (Properties dock); the layer&apos;s range does not apply</source>
        <translation>球体和长方体有各自的 z（属性面板）；图层的 z 范围对其不适用</translation>
    </message>
    <message>
        <source>No z range: the layer spans the whole domain in z; type a value to set one</source>
        <translation>无 z 范围：图层在 z 方向覆盖整个计算域；输入数值即可设置</translation>
    </message>
    <message>
        <source>3D: the layers are extruded over [z0, z1]; a positive sidewall angle narrows them upwards.</source>
        <translation>3D：图层在 [z0, z1] 上拉伸；正的侧壁角使其向上收窄。</translation>
    </message>
    <message>
        <source>2D project: z ranges apply when you switch to 3D (Run setup &gt; Dimensions).</source>
        <translation>2D 项目：切换到 3D 后 z 范围生效（运行设置 &gt; 维度）。</translation>
    </message>
    <message>
        <source>GDS layer</source>
        <translation>GDS 图层</translation>
    </message>
    <message>
        <source>GDSII layer/datatype the layer&apos;s shapes are exported to (File &gt; Export GDS), e.g. 1/0; empty: none</source>
        <translation>该图层的形状导出到的 GDSII 图层/数据类型（文件 &gt; 导出 GDS），例如 1/0；留空：无</translation>
    </message>
    <message>
        <source>Set GDS layer</source>
        <translation>设置 GDS 图层</translation>
    </message>
    <message>
        <source>No GDS layer: an export writes this layer on layer %1, datatype 0</source>
        <translation>无 GDS 图层：导出时将此图层写入图层 %1，数据类型 0</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source>must be a GDS layer/datatype such as 1/0 (numbers 0 to 65535), or empty</source>
        <translation>必须是 GDS 图层/数据类型，例如 1/0（数字 0 到 65535），或留空</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>必须是数字</translation>
    </message>
    <message>
        <source>must be less than z1 (%1 µm)</source>
        <translation>必须小于 z1 (%1 µm)</translation>
    </message>
    <message>
        <source>must be greater than z0 (%1 µm)</source>
        <translation>必须大于 z0 (%1 µm)</translation>
    </message>
    <message>
        <source>must be between -90 and 90 degrees (not included)</source>
        <translation>必须在 -90 到 90 度之间（不含端点）</translation>
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
        <translation>侧壁</translation>
    </message>
    <message>
        <source>Layer stack: layer &quot;%1&quot;: %2: %3 (entered %4)</source>
        <translation>图层堆叠：图层“%1”：%2：%3（输入值 %4）</translation>
    </message>
</context>
<context>
    <name>golightly::editor::LayersDock</name>
    <message>
        <source>Layers</source>
        <translation>图层</translation>
    </message>
    <message>
        <source>Layers, topmost first: a layer wins where it overlaps the ones below it.
Check box: show/hide. Double-click: rename. Drag: reorder.</source>
        <translation>图层，最上层在前：图层与其下方图层重叠处以该图层为准。
复选框：显示/隐藏。双击：重命名。拖动：调整顺序。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add a layer above the current one</source>
        <translation>在当前图层上方添加图层</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the current layer</source>
        <translation>删除当前图层</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move the current layer up (drawn later, wins overlaps)</source>
        <translation>上移当前图层（后绘制，重叠处优先）</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Move the current layer down</source>
        <translation>下移当前图层</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁定</translation>
    </message>
    <message>
        <source>Lock or unlock the current layer</source>
        <translation>锁定或解锁当前图层</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>Limit z range</source>
        <translation>限制 z 范围</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>z</source>
        <translation>z</translation>
    </message>
    <message>
        <source>Reference run only</source>
        <translation>仅用于参考运行</translation>
    </message>
    <message>
        <source>Left out of the main run; used by the normalization run</source>
        <translation>主运行中不包含；用于归一化运行</translation>
    </message>
    <message>
        <source>(reference)</source>
        <translation>（参考）</translation>
    </message>
    <message>
        <source>Rename layer</source>
        <translation>重命名图层</translation>
    </message>
    <message>
        <source>Show layer</source>
        <translation>显示图层</translation>
    </message>
    <message>
        <source>Hide layer</source>
        <translation>隐藏图层</translation>
    </message>
    <message>
        <source>Set layer material</source>
        <translation>设置图层材料</translation>
    </message>
    <message>
        <source>Set layer z range</source>
        <translation>设置图层 z 范围</translation>
    </message>
    <message>
        <source>Set reference-only</source>
        <translation>设为仅参考</translation>
    </message>
    <message>
        <source>  (reference)</source>
        <translation>  （参考）</translation>
    </message>
    <message>
        <source>Material: %1</source>
        <translation>材料：%1</translation>
    </message>
    <message>
        <source> (locked)</source>
        <translation>（已锁定）</translation>
    </message>
    <message>
        <source>air (eps 1)</source>
        <translation>空气 (eps 1)</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>图层 %1</translation>
    </message>
    <message>
        <source>Add layer</source>
        <translation>添加图层</translation>
    </message>
    <message>
        <source>Delete layer</source>
        <translation>删除图层</translation>
    </message>
    <message>
        <source>Reorder layers</source>
        <translation>调整图层顺序</translation>
    </message>
    <message>
        <source>Lock layer</source>
        <translation>锁定图层</translation>
    </message>
    <message>
        <source>Unlock layer</source>
        <translation>解锁图层</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MaterialEditorDialog</name>
    <message>
        <source>High-frequency permittivity eps_inf (&gt;= 1 keeps the vacuum Courant limit)</source>
        <translation>高频介电常数 eps_inf（&gt;= 1 时真空 Courant 极限仍然有效）</translation>
    </message>
    <message>
        <source>Static conductivity: adds i sigma / (eps0 w) to eps</source>
        <translation>静态电导率：在 eps 上加 i sigma / (eps0 w)</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>eps_inf</source>
        <translation>eps_inf</translation>
    </message>
    <message>
        <source>Conductivity (S/m)</source>
        <translation>电导率 (S/m)</translation>
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
        <translation>极点频率的显示单位；项目中以 rad/s 存储</translation>
    </message>
    <message>
        <source>Frequency unit</source>
        <translation>频率单位</translation>
    </message>
    <message>
        <source>Poles: eps(w) = eps_inf + i sigma/(eps0 w) + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma)</source>
        <translation>极点：eps(w) = eps_inf + i sigma/(eps0 w) + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma)</translation>
    </message>
    <message>
        <source>Kind: drude (omega_0 = 0) or lorentz. Frequencies in the selected unit.</source>
        <translation>类型：drude（omega_0 = 0）或 lorentz。频率使用所选单位。</translation>
    </message>
    <message>
        <source>Add pole</source>
        <translation>添加极点</translation>
    </message>
    <message>
        <source>Remove pole</source>
        <translation>删除极点</translation>
    </message>
    <message>
        <source>Fit to data...</source>
        <translation>拟合数据...</translation>
    </message>
    <message>
        <source>Save to personal library</source>
        <translation>保存到个人材料库</translation>
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
        <translation>图表</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Material (removed)</source>
        <translation>材料（已删除）</translation>
    </message>
    <message>
        <source>Material &quot;%1&quot;</source>
        <translation>材料“%1”</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
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
        <translation>%1 - %2 µm</translation>
    </message>
    <message>
        <source>Material id</source>
        <translation>材料 ID</translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is empty or already used.</source>
        <translation>ID“%1”为空或已被使用。</translation>
    </message>
    <message>
        <source>Rename material</source>
        <translation>重命名材料</translation>
    </message>
    <message>
        <source>Edit eps_inf</source>
        <translation>编辑 eps_inf</translation>
    </message>
    <message>
        <source>Edit conductivity</source>
        <translation>编辑电导率</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid value here.</source>
        <translation>“%1”在此处不是有效值。</translation>
    </message>
    <message>
        <source>Pole</source>
        <translation>极点</translation>
    </message>
    <message>
        <source>Edit pole</source>
        <translation>编辑极点</translation>
    </message>
    <message>
        <source>Fit poles</source>
        <translation>拟合极点</translation>
    </message>
    <message>
        <source>Personal library</source>
        <translation>个人材料库</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MaterialLibraryDialog</name>
    <message>
        <source>Add material from library</source>
        <translation>从材料库添加材料</translation>
    </message>
    <message>
        <source>(personal)</source>
        <translation>（个人）</translation>
    </message>
    <message>
        <source>%1 poles. Source: %2</source>
        <translation>%1 个极点。来源：%2</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>未给出</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MaterialsDock</name>
    <message>
        <source>Materials</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
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
        <translation>极点</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
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
        <translation>eps(w) = eps_inf + sum omega_p^2 / (omega_0^2 - w^2 - i w gamma)；Drude 极点的 omega_0 = 0。
类型：输入 drude 或 lorentz。</translation>
    </message>
    <message>
        <source>Add pole</source>
        <translation>添加极点</translation>
    </message>
    <message>
        <source>Remove pole</source>
        <translation>移除极点</translation>
    </message>
    <message>
        <source>Material colour</source>
        <translation>材料颜色</translation>
    </message>
    <message>
        <source>Set material colour</source>
        <translation>设置材料颜色</translation>
    </message>
    <message>
        <source>Double-click to choose the colour</source>
        <translation>双击选择颜色</translation>
    </message>
    <message>
        <source>Dispersion poles of &quot;%1&quot;</source>
        <translation>“%1”的色散极点</translation>
    </message>
    <message>
        <source>Dispersion poles (select a material)</source>
        <translation>色散极点（请选择材料）</translation>
    </message>
    <message>
        <source>Pole</source>
        <translation>极点</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid value here.</source>
        <translation>“%1”在此处不是有效值。</translation>
    </message>
    <message>
        <source>Edit pole</source>
        <translation>编辑极点</translation>
    </message>
    <message>
        <source>Material id</source>
        <translation>材料 ID</translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is empty or already used.</source>
        <translation>ID“%1”为空或已被使用。</translation>
    </message>
    <message>
        <source>Rename material</source>
        <translation>重命名材料</translation>
    </message>
    <message>
        <source>Edit eps_inf</source>
        <translation>编辑 eps_inf</translation>
    </message>
    <message>
        <source>Edit conductivity</source>
        <translation>编辑电导率</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>New material</source>
        <translation>新材料</translation>
    </message>
    <message>
        <source>Add material</source>
        <translation>添加材料</translation>
    </message>
    <message>
        <source>Delete material</source>
        <translation>删除材料</translation>
    </message>
    <message>
        <source>The material &quot;%1&quot; is used by a layer or as the background.</source>
        <translation>材料“%1”正被某个图层或背景使用。</translation>
    </message>
    <message>
        <source>Edit...</source>
        <translation>编辑...</translation>
    </message>
    <message>
        <source>Material editor: poles in rad/s, eV or THz, plot of eps, fit to measured n,k</source>
        <translation>材料编辑器：极点以 rad/s、eV 或 THz 表示，eps 曲线，拟合实测 n,k</translation>
    </message>
    <message>
        <source>Add from library...</source>
        <translation>从材料库添加...</translation>
    </message>
    <message>
        <source>Dispersion poles: double-click to open the material editor</source>
        <translation>色散极点：双击打开材料编辑器</translation>
    </message>
    <message>
        <source>Material library</source>
        <translation>材料库</translation>
    </message>
    <message>
        <source>The project already has a material &quot;%1&quot;. Id of the new copy:</source>
        <translation>项目中已有材料“%1”。新副本的 ID：</translation>
    </message>
    <message>
        <source>The id must not be empty. Id of the new copy:</source>
        <translation>ID 不能为空。新副本的 ID：</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is taken too. Id of the new copy:</source>
        <translation>“%1”也已被使用。新副本的 ID：</translation>
    </message>
</context>
<context>
    <name>golightly::editor::MonitorTool</name>
    <message>
        <source>Flux monitor</source>
        <translation>通量监视器</translation>
    </message>
    <message>
        <source>Time probe</source>
        <translation>时域探针</translation>
    </message>
    <message>
        <source>DFT field region</source>
        <translation>DFT 场区域</translation>
    </message>
    <message>
        <source>Mode monitor</source>
        <translation>模式监视器</translation>
    </message>
</context>
<context>
    <name>golightly::editor::ParametersDock</name>
    <message>
        <source>layer &quot;%1&quot;, shape %2: %3</source>
        <translation>层“%1”，形状 %2：%3</translation>
    </message>
    <message>
        <source>layer &quot;%1&quot;: %2</source>
        <translation>层“%1”：%2</translation>
    </message>
    <message>
        <source>source &quot;%1&quot;: %2</source>
        <translation>光源“%1”：%2</translation>
    </message>
    <message>
        <source>monitor &quot;%1&quot;: %2</source>
        <translation>监视器“%1”：%2</translation>
    </message>
    <message>
        <source>port &quot;%1&quot;: %2</source>
        <translation>端口“%1”：%2</translation>
    </message>
    <message>
        <source>parameter %1</source>
        <translation>参数 %1</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Expression</source>
        <translation>表达式</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Used by</source>
        <translation>使用者</translation>
    </message>
    <message>
        <source>A number (µm, fs or no unit) or an expression over the parameters above, e.g. 250 nm or 2 * w</source>
        <translation>一个数（µm、fs 或无单位）或基于上方参数的表达式，例如 250 nm 或 2 * w</translation>
    </message>
    <message>
        <source>How many fields and parameters use it (the list is below)</source>
        <translation>有多少字段和参数使用它（列表在下方）</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add a parameter (then type its name and value in the table)</source>
        <translation>添加一个参数（然后在表格中输入其名称和值）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected parameter; its uses get its value</source>
        <translation>删除所选参数；使用它的地方改用其值</translation>
    </message>
    <message>
        <source>No parameters. Add one, then type its name in any numeric field of Properties or Run setup, e.g. 2 * w + 10nm.</source>
        <translation>没有参数。添加一个，然后在“属性”或“运行设置”的任意数值字段中输入其名称，例如 2 * w + 10nm。</translation>
    </message>
    <message>
        <source>%1 is not used.</source>
        <translation>%1 未被使用。</translation>
    </message>
    <message>
        <source>%1 is used by:
%2</source>
        <translation>%1 被以下使用：
%2</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid parameter name (letters, digits and _, not starting with a digit; not a unit, pi or a function name)</source>
        <translation>“%1”不是有效的参数名（字母、数字和 _，不能以数字开头；不能是单位、pi 或函数名）</translation>
    </message>
    <message>
        <source>the project has a parameter %1 already</source>
        <translation>项目中已有参数 %1</translation>
    </message>
    <message>
        <source>Add parameter %1</source>
        <translation>添加参数 %1</translation>
    </message>
    <message>
        <source>the project has no parameter %1</source>
        <translation>项目中没有参数 %1</translation>
    </message>
    <message>
        <source>Rename parameter %1 to %2</source>
        <translation>将参数 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>the value of %1 is empty</source>
        <translation>%1 的值为空</translation>
    </message>
    <message>
        <source>Set parameter %1</source>
        <translation>设置参数 %1</translation>
    </message>
    <message>
        <source>Delete parameter</source>
        <translation>删除参数</translation>
    </message>
    <message>
        <source>%1 is used by:
%2

Delete it and put its value (%3) in its place?</source>
        <translation>%1 被以下使用：
%2

删除它并在这些位置填入其值（%3）？</translation>
    </message>
    <message>
        <source>Replace uses by the value</source>
        <translation>用值替换使用处</translation>
    </message>
    <message>
        <source>Delete parameter %1</source>
        <translation>删除参数 %1</translation>
    </message>
    <message>
        <source>design: shape parameter [%1, %2]</source>
        <translation>设计：形状参数 [%1, %2]</translation>
    </message>
    <message>
        <source>The design stops optimizing it (its shape parameter is removed; without shape parameters the design section goes).</source>
        <translation>设计将不再优化它（其形状参数被移除；没有形状参数时设计部分一并删除）。</translation>
    </message>
</context>
<context>
    <name>golightly::editor::PointsTool</name>
    <message>
        <source>Draw polygon</source>
        <translation>绘制多边形</translation>
    </message>
    <message>
        <source>Draw waveguide path</source>
        <translation>绘制波导路径</translation>
    </message>
    <message>
        <source>Polygon</source>
        <translation>多边形</translation>
    </message>
    <message>
        <source>Waveguide path</source>
        <translation>波导路径</translation>
    </message>
    <message>
        <source>Waveguide path: click to place the first point (width and bend radius in the tool options)</source>
        <translation>波导路径：单击放置第一个点（宽度和弯曲半径见工具选项）</translation>
    </message>
    <message>
        <source>Polygon: click to place the first corner</source>
        <translation>多边形：单击放置第一个顶点</translation>
    </message>
    <message>
        <source>Click the next point; Backspace removes the last one, Esc cancels</source>
        <translation>单击下一个点；Backspace 删除上一个点，Esc 取消</translation>
    </message>
    <message numerus="yes">
        <source>%n corner(s) placed: click the next one; Backspace removes the last one, Esc cancels</source>
        <translation>
            <numerusform>已放置 %n 个顶点：单击下一个；Backspace 删除上一个，Esc 取消</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n point(s): click to go on; double-click, Enter or right-click finishes; Backspace removes the last point, Esc cancels</source>
        <translation>
            <numerusform>%n 个点：单击继续；双击、Enter 或右键单击完成；Backspace 删除上一个点，Esc 取消</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n corner(s): click to go on; double-click, Enter or right-click closes the polygon; Backspace removes the last corner, Esc cancels</source>
        <translation>
            <numerusform>%n 个顶点：单击继续；双击、Enter 或右键单击闭合多边形；Backspace 删除上一个顶点，Esc 取消</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>golightly::editor::PoleFitDialog</name>
    <message>
        <source>Fit poles to measured data</source>
        <translation>将极点拟合到测量数据</translation>
    </message>
    <message>
        <source>Import CSV...</source>
        <translation>导入 CSV...</translation>
    </message>
    <message>
        <source>refractiveindex.info export: wavelength (µm), n, k; one table or an n block and a k block</source>
        <translation>refractiveindex.info 导出：波长 (µm)、n、k；单个表格或一个 n 块加一个 k 块</translation>
    </message>
    <message>
        <source>No data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>One Drude pole (metals)</source>
        <translation>一个 Drude 极点（金属）</translation>
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
        <translation>极点</translation>
    </message>
    <message>
        <source>Band from</source>
        <translation>波段从</translation>
    </message>
    <message>
        <source>Band to</source>
        <translation>波段到</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>拟合</translation>
    </message>
    <message>
        <source>Replace eps_inf and the poles of the material with the fit</source>
        <translation>用拟合结果替换材料的 eps_inf 和极点</translation>
    </message>
    <message>
        <source>Import optical constants</source>
        <translation>导入光学常数</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt);;All files (*)</source>
        <translation>CSV 文件 (*.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read the data: %1</source>
        <translation>无法读取数据：%1</translation>
    </message>
    <message>
        <source>%1: %2 points, %3 - %4 µm%5</source>
        <translation>%1：%2 个点，%3 - %4 µm%5</translation>
    </message>
    <message>
        <source> (no k: lossless)</source>
        <translation>（无 k：无损耗）</translation>
    </message>
    <message>
        <source>Choose the poles and the band, then Fit.</source>
        <translation>选择极点数和波段，然后点击拟合。</translation>
    </message>
    <message>
        <source>Fitting...</source>
        <translation>正在拟合...</translation>
    </message>
    <message>
        <source>The fit failed: %1</source>
        <translation>拟合失败：%1</translation>
    </message>
    <message>
        <source>eps_inf = %1, %2 poles, %3 points.
RMS relative error of eps: %4 (max %5).
RMS = sqrt(mean |eps_fit - eps_data|^2 / |eps_data|^2).</source>
        <translation>eps_inf = %1，%2 个极点，%3 个点。
eps 的相对误差 RMS：%4（最大 %5）。
RMS = sqrt(mean |eps_fit - eps_data|^2 / |eps_data|^2)。</translation>
    </message>
    <message>
        <source>n (fit)</source>
        <translation>n（拟合）</translation>
    </message>
    <message>
        <source>Re eps (fit)</source>
        <translation>Re eps（拟合）</translation>
    </message>
    <message>
        <source>k (fit)</source>
        <translation>k（拟合）</translation>
    </message>
    <message>
        <source>Im eps (fit)</source>
        <translation>Im eps（拟合）</translation>
    </message>
</context>
<context>
    <name>golightly::editor::PortTool</name>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Drag a line across the waveguide to place a port (S-parameters); direction and modes in Properties</source>
        <translation>横跨波导拖出一条线以放置端口（S 参数）；方向和模式在属性面板中设置</translation>
    </message>
</context>
<context>
    <name>golightly::editor::PropertiesDock</name>
    <message>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Edit shape</source>
        <translation>编辑形状</translation>
    </message>
    <message>
        <source>Edit source</source>
        <translation>编辑光源</translation>
    </message>
    <message>
        <source>Edit monitor</source>
        <translation>编辑监视器</translation>
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
        <translation>形状</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>图层</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Rotation</source>
        <translation>旋转</translation>
    </message>
    <message>
        <source> deg</source>
        <translation> °</translation>
    </message>
    <message>
        <source>Centre</source>
        <translation>中心</translation>
    </message>
    <message>
        <source>Radius x</source>
        <translation>x 半径</translation>
    </message>
    <message>
        <source>Radius y</source>
        <translation>y 半径</translation>
    </message>
    <message>
        <source>Inner radius</source>
        <translation>内半径</translation>
    </message>
    <message>
        <source>Outer radius</source>
        <translation>外半径</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Bend radius</source>
        <translation>弯曲半径</translation>
    </message>
    <message>
        <source>Point %1</source>
        <translation>点 %1</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>原点</translation>
    </message>
    <message>
        <source>Pixel size</source>
        <translation>像素尺寸</translation>
    </message>
    <message>
        <source>Pixels</source>
        <translation>像素</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>point</source>
        <translation>点</translation>
    </message>
    <message>
        <source>line</source>
        <translation>线</translation>
    </message>
    <message>
        <source>region</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>At</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>From</source>
        <translation>起点</translation>
    </message>
    <message>
        <source>To</source>
        <translation>终点</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>均匀</translation>
    </message>
    <message>
        <source>gaussian</source>
        <translation>高斯</translation>
    </message>
    <message>
        <source>mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Waist</source>
        <translation>束腰</translation>
    </message>
    <message>
        <source>Mode index</source>
        <translation>模式序号</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>分量</translation>
    </message>
    <message>
        <source>Amplitude</source>
        <translation>振幅</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>相位</translation>
    </message>
    <message>
        <source>Waveform</source>
        <translation>波形</translation>
    </message>
    <message>
        <source>Gaussian pulse</source>
        <translation>高斯脉冲</translation>
    </message>
    <message>
        <source>CW</source>
        <translation>连续波 (CW)</translation>
    </message>
    <message>
        <source>Centre wavelength</source>
        <translation>中心波长</translation>
    </message>
    <message>
        <source>Wavelength span</source>
        <translation>波长范围</translation>
    </message>
    <message>
        <source>Wavelength</source>
        <translation>波长</translation>
    </message>
    <message>
        <source>flux line</source>
        <translation>通量线</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>time probe</source>
        <translation>时域探针</translation>
    </message>
    <message>
        <source>flux box</source>
        <translation>通量盒</translation>
    </message>
    <message>
        <source>DFT field</source>
        <translation>DFT 场</translation>
    </message>
    <message>
        <source>Wavelengths (µm)</source>
        <translation>波长 (µm)</translation>
    </message>
    <message>
        <source>Select a shape, source or monitor on the canvas to edit it here.</source>
        <translation>在画布上选择形状、光源或监视器，即可在此编辑。</translation>
    </message>
    <message>
        <source>transmission</source>
        <translation>透射</translation>
    </message>
    <message>
        <source>reflection</source>
        <translation>反射</translation>
    </message>
    <message>
        <source>flux</source>
        <translation>通量</translation>
    </message>
    <message>
        <source>rectangle</source>
        <translation>矩形</translation>
    </message>
    <message>
        <source>polygon</source>
        <translation>多边形</translation>
    </message>
    <message>
        <source>ellipse</source>
        <translation>椭圆</translation>
    </message>
    <message>
        <source>ring</source>
        <translation>圆环</translation>
    </message>
    <message>
        <source>waveguide path</source>
        <translation>波导路径</translation>
    </message>
    <message>
        <source>bitmap</source>
        <translation>位图</translation>
    </message>
    <message>
        <source>STEP solid</source>
        <translation>STEP 实体</translation>
    </message>
    <message>
        <source>Solids</source>
        <translation>实体</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Unit scale</source>
        <translation>单位比例</translation>
    </message>
    <message>
        <source> µm/unit</source>
        <translation> µm/单位</translation>
    </message>
    <message>
        <source>Translate %1</source>
        <translation>平移 %1</translation>
    </message>
    <message>
        <source>Rotate %1</source>
        <translation>旋转 %1</translation>
    </message>
    <message>
        <source>Re-import...</source>
        <translation>重新导入...</translation>
    </message>
    <message>
        <source>Replace the embedded STEP file, keeping placement, layers and materials</source>
        <translation>替换嵌入的 STEP 文件，保留位置、图层和材料</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source>no field &quot;%1&quot;</source>
        <translation>没有字段“%1”</translation>
    </message>
    <message>
        <source>%1: %2: %3 (entered %4)</source>
        <translation>%1：%2：%3（输入值 %4）</translation>
    </message>
    <message>
        <source>must be greater than 0</source>
        <translation>必须大于 0</translation>
    </message>
    <message>
        <source>%1 in layer &quot;%2&quot;</source>
        <translation>图层“%2”中的%1</translation>
    </message>
    <message>
        <source>must be 0 or more</source>
        <translation>必须大于或等于 0</translation>
    </message>
    <message>
        <source>must be less than the outer radius (%1)</source>
        <translation>必须小于外半径（%1）</translation>
    </message>
    <message>
        <source>must be greater than the inner radius (%1)</source>
        <translation>必须大于内半径（%1）</translation>
    </message>
    <message>
        <source>must be 0 (sharp corners) or more</source>
        <translation>必须大于或等于 0（0 为尖角）</translation>
    </message>
    <message>
        <source>source &quot;%1&quot;</source>
        <translation>光源“%1”</translation>
    </message>
    <message>
        <source>must be less than twice the centre wavelength (%1)</source>
        <translation>必须小于中心波长的两倍（%1）</translation>
    </message>
    <message>
        <source>monitor &quot;%1&quot;</source>
        <translation>监视器“%1”</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>(top cell)</source>
        <translation>（顶层单元）</translation>
    </message>
    <message>
        <source>GDS layer</source>
        <translation>GDS 图层</translation>
    </message>
    <message>
        <source> z</source>
        <translation> z</translation>
    </message>
    <message>
        <source>sphere</source>
        <translation>球体</translation>
    </message>
    <message>
        <source>box</source>
        <translation>长方体</translation>
    </message>
    <message>
        <source>Radius</source>
        <translation>半径</translation>
    </message>
    <message>
        <source>plane</source>
        <translation>平面</translation>
    </message>
    <message>
        <source>TF/SF box</source>
        <translation>TF/SF 盒</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>must be 0 (the normal) or more</source>
        <translation>必须大于或等于 0（0 表示法向）</translation>
    </message>
    <message>
        <source>two-way</source>
        <translation>双向</translation>
    </message>
    <message>
        <source>flux plane</source>
        <translation>通量面</translation>
    </message>
    <message>
        <source>flux (net outward)</source>
        <translation>通量（净向外）</translation>
    </message>
    <message>
        <source>absorption cross-section</source>
        <translation>吸收截面</translation>
    </message>
    <message>
        <source>scattering cross-section</source>
        <translation>散射截面</translation>
    </message>
    <message>
        <source>Edit port</source>
        <translation>编辑端口</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>法向</translation>
    </message>
    <message>
        <source>port &quot;%1&quot;</source>
        <translation>端口“%1”</translation>
    </message>
    <message>
        <source>port (plane)</source>
        <translation>端口（平面）</translation>
    </message>
    <message>
        <source>port (line)</source>
        <translation>端口（线）</translation>
    </message>
    <message>
        <source>Size x</source>
        <translation>x 尺寸</translation>
    </message>
    <message>
        <source>Size y</source>
        <translation>y 尺寸</translation>
    </message>
    <message>
        <source>Modes</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>mode (amplitudes)</source>
        <translation>模式（振幅）</translation>
    </message>
    <message>
        <source>must be less than max %1 (%2)</source>
        <translation>必须小于最大 %1 (%2)</translation>
    </message>
    <message>
        <source>must be greater than min %1 (%2)</source>
        <translation>必须大于最小 %1 (%2)</translation>
    </message>
    <message>
        <source>must be a list of mode indices from 0 to 99, e.g. &quot;0&quot; or &quot;0, 1&quot; (0: the highest n_eff)</source>
        <translation>必须是 0 到 99 的模式序号列表，例如 &quot;0&quot; 或 &quot;0, 1&quot;（0：n_eff 最高的模式）</translation>
    </message>
    <message>
        <source>Target n_eff</source>
        <translation>目标 n_eff</translation>
    </message>
    <message>
        <source>must be greater than 0 (an effective index), or 0 for none (the highest-index modes)</source>
        <translation>必须大于 0（有效折射率），或为 0 表示不设（折射率最高的模式）</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>筛选</translation>
    </message>
    <message>
        <source>none (all modes)</source>
        <translation>无（所有模式）</translation>
    </message>
    <message>
        <source>TE (E along the wafer plane)</source>
        <translation>TE（E 沿晶圆平面）</translation>
    </message>
    <message>
        <source>TM</source>
        <translation>TM</translation>
    </message>
    <message>
        <source>must be 0 (straight) or larger than half the monitor&apos;s extent along %1 (%2 µm): the bend&apos;s centre must lie outside the monitor</source>
        <translation>必须为 0（直波导）或大于监视器沿 %1 方向长度的一半（%2 µm）：弯曲的曲率中心必须位于监视器之外</translation>
    </message>
    <message>
        <source>needs a monitor longer than %1 cells along %2 (it has %3): the bend&apos;s absorbing layers take %4 cells at each end</source>
        <translation>监视器沿 %2 方向需要多于 %1 个网格（现有 %3 个）：弯曲的吸收层在两端各占 %4 个网格</translation>
    </message>
    <message>
        <source>Bend axis</source>
        <translation>弯曲轴</translation>
    </message>
    <message>
        <source>Remove expression</source>
        <translation>移除表达式</translation>
    </message>
    <message>
        <source>this field sets more than one value of the project: it takes a number only</source>
        <translation>此字段设置项目中的多个值：只接受数字</translation>
    </message>
    <message>
        <source>this field is stored in another unit than it shows: it takes a number only</source>
        <translation>此字段的存储单位与显示单位不同：只接受数字</translation>
    </message>
    <message>
        <source>Set expression</source>
        <translation>设置表达式</translation>
    </message>
    <message>
        <source>must leave a box wider than 0</source>
        <translation>区域宽度必须大于 0</translation>
    </message>
    <message>
        <source>the box must be a whole number of pixels (%1 um / %2 um = %3)</source>
        <translation>区域必须是整数个像素（%1 um / %2 um = %3）</translation>
    </message>
    <message>
        <source>design region &quot;%1&quot;</source>
        <translation>设计区域“%1”</translation>
    </message>
    <message>
        <source>Rename design region</source>
        <translation>重命名设计区域</translation>
    </message>
    <message>
        <source>design region (box)</source>
        <translation>设计区域（长方体）</translation>
    </message>
    <message>
        <source>design region (rectangle)</source>
        <translation>设计区域（矩形）</translation>
    </message>
    <message>
        <source>Min %1</source>
        <translation>最小 %1</translation>
    </message>
    <message>
        <source>Edit design region</source>
        <translation>编辑设计区域</translation>
    </message>
    <message>
        <source>Max %1</source>
        <translation>最大 %1</translation>
    </message>
    <message>
        <source>Pixel</source>
        <translation>像素</translation>
    </message>
    <message>
        <source>Edit design pixel</source>
        <translation>编辑设计像素</translation>
    </message>
    <message>
        <source>Material (rho = 0)</source>
        <translation>材料 (rho = 0)</translation>
    </message>
    <message>
        <source>Material (rho = 1)</source>
        <translation>材料 (rho = 1)</translation>
    </message>
    <message>
        <source>Edit design materials</source>
        <translation>编辑设计材料</translation>
    </message>
    <message>
        <source>Start density</source>
        <translation>初始密度</translation>
    </message>
    <message>
        <source>Edit start density</source>
        <translation>编辑初始密度</translation>
    </message>
    <message>
        <source>must be in [0, 1]</source>
        <translation>必须在 [0, 1] 内</translation>
    </message>
    <message numerus="yes">
        <source>a list of %n value(s) (shown on the canvas)</source>
        <translation>
            <numerusform>%n 个值的列表（显示在画布上）</numerusform>
        </translation>
    </message>
    <message>
        <source>Reset density</source>
        <translation>重置密度</translation>
    </message>
    <message>
        <source>keep the list</source>
        <translation>保留列表</translation>
    </message>
    <message>
        <source>uniform 0.5</source>
        <translation>均匀 0.5</translation>
    </message>
    <message>
        <source>file %1</source>
        <translation>文件 %1</translation>
    </message>
    <message>
        <source>Edit design filter</source>
        <translation>编辑设计滤波器</translation>
    </message>
    <message>
        <source>Filter radius</source>
        <translation>滤波半径</translation>
    </message>
    <message>
        <source>must be 0 (no filter) or more</source>
        <translation>必须为 0（无滤波）或更大</translation>
    </message>
    <message>
        <source>Beta</source>
        <translation>Beta</translation>
    </message>
    <message>
        <source>Edit projection</source>
        <translation>编辑投影</translation>
    </message>
    <message>
        <source>must be at most beta max (%1)</source>
        <translation>不得超过 beta 最大值 (%1)</translation>
    </message>
    <message>
        <source>Beta max</source>
        <translation>Beta 最大值</translation>
    </message>
    <message>
        <source>must be at least beta (%1)</source>
        <translation>必须至少为 beta (%1)</translation>
    </message>
    <message>
        <source>Beta every</source>
        <translation>Beta 间隔</translation>
    </message>
    <message>
        <source> iterations</source>
        <translation> 次迭代</translation>
    </message>
    <message>
        <source>must be a whole number, at least 1</source>
        <translation>必须是至少为 1 的整数</translation>
    </message>
    <message>
        <source>Minimum length</source>
        <translation>最小尺寸</translation>
    </message>
    <message>
        <source>Edit minimum length</source>
        <translation>编辑最小尺寸</translation>
    </message>
    <message>
        <source>must be 0 (no constraint) or more</source>
        <translation>必须为 0（无约束）或更大</translation>
    </message>
    <message>
        <source>needs a conic filter with a radius above 0</source>
        <translation>需要半径大于 0 的锥形滤波器</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>目标函数</translation>
    </message>
    <message>
        <source>in the Inverse Design dock (Run &gt; Optimize (adjoint))</source>
        <translation>在“逆向设计”面板中（运行 &gt; 优化（伴随））</translation>
    </message>
    <message>
        <source>Fixed pixels</source>
        <translation>固定像素</translation>
    </message>
    <message>
        <source>none (Design Region tool: Shift+drag inside the region for a fixed solid box, Ctrl+drag for a fixed void box)</source>
        <translation>无（设计区域工具：在区域内 Shift+拖动得到固定实心框，Ctrl+拖动得到固定空心框）</translation>
    </message>
    <message>
        <source>%1 solid, %2 void</source>
        <translation>%1 个实心，%2 个空心</translation>
    </message>
    <message>
        <source>Fixed box %1</source>
        <translation>固定框 %1</translation>
    </message>
    <message>
        <source>solid (rho = 1)</source>
        <translation>实心 (rho = 1)</translation>
    </message>
    <message>
        <source>void (rho = 0)</source>
        <translation>空心 (rho = 0)</translation>
    </message>
    <message>
        <source>Edit fixed box</source>
        <translation>编辑固定框</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove this fixed box (its pixels are optimized again)</source>
        <translation>移除此固定框（其像素将重新参与优化）</translation>
    </message>
    <message>
        <source>Delete fixed box</source>
        <translation>删除固定框</translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation>%1 %2 %3</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>must lie inside the design region (%1 .. %2 um)</source>
        <translation>必须位于设计区域内 (%1 .. %2 µm)</translation>
    </message>
    <message>
        <source>must be below max (%1 um)</source>
        <translation>必须小于最大值 (%1 µm)</translation>
    </message>
    <message>
        <source>must exceed min (%1 um)</source>
        <translation>必须大于最小值 (%1 µm)</translation>
    </message>
    <message>
        <source>&quot;inf&quot; needs the smoothed projection (the tanh projection has no gradient at beta = infinity): choose Projection &quot;smoothed&quot; first</source>
        <translation>&quot;inf&quot; 需要平滑投影（tanh 投影在 beta = 无穷大时没有梯度）：请先将投影设为“平滑”</translation>
    </message>
    <message>
        <source>&quot;inf&quot; must be the last beta (entry %1 of %2)</source>
        <translation>&quot;inf&quot; 必须是最后一个 beta（第 %1 项，共 %2 项）</translation>
    </message>
    <message>
        <source>entry %1 (&quot;%2&quot;) is not a number or &quot;inf&quot;; e.g. 4, 8, 16, 32, inf</source>
        <translation>第 %1 项（&quot;%2&quot;）不是数字或 &quot;inf&quot;；例如 4, 8, 16, 32, inf</translation>
    </message>
    <message>
        <source>entry %1 (%2) must be greater than 0</source>
        <translation>第 %1 项（%2）必须大于 0</translation>
    </message>
    <message>
        <source>entry %1 (%2) must not be below the beta before it (%3)</source>
        <translation>第 %1 项（%2）不得小于前一个 beta（%3）</translation>
    </message>
    <message>
        <source>Projection</source>
        <translation>投影</translation>
    </message>
    <message>
        <source>tanh</source>
        <translation>tanh</translation>
    </message>
    <message>
        <source>smoothed (subpixel)</source>
        <translation>平滑（亚像素）</translation>
    </message>
    <message>
        <source>tanh: the usual projection. smoothed: the subpixel-smoothed projection of Hammond et al. (2025), which keeps a gradient at any beta, so that the beta list may end with inf (a binary design). Choosing tanh drops a final inf from the beta list.</source>
        <translation>tanh：常规投影。平滑：Hammond 等人（2025）的亚像素平滑投影，在任意 beta 下都保留梯度，因此 beta 列表可以以 inf（二值设计）结尾。选择 tanh 会删除 beta 列表末尾的 inf。</translation>
    </message>
    <message>
        <source>Beta list</source>
        <translation>Beta 列表</translation>
    </message>
    <message>
        <source>The beta schedule as a list, e.g. 4, 8, 16, 32, inf: each entry for Beta every iterations, the last one kept; inf (the binary design) only last and only with the smoothed projection. Empty: beta grows from Beta to Beta max instead (Beta and Beta max are not used with a list).</source>
        <translation>以列表表示的 beta 计划，例如 4, 8, 16, 32, inf：每项持续“Beta 间隔”次迭代，最后一项保持不变；inf（二值设计）只能位于最后且只能用于平滑投影。留空：beta 从 Beta 增长到 Beta 最大值（使用列表时不使用 Beta 和 Beta 最大值）。</translation>
    </message>
    <message>
        <source>e.g. 4, 8, 16, 32, inf (empty: Beta .. Beta max)</source>
        <translation>例如 4, 8, 16, 32, inf（留空：Beta .. Beta 最大值）</translation>
    </message>
    <message>
        <source>must lie between 0 and the projection&apos;s eta (%1), found %2</source>
        <translation>必须介于 0 与投影的 eta（%1）之间，实际为 %2</translation>
    </message>
    <message>
        <source>must lie between the projection&apos;s eta (%1) and 1, found %2</source>
        <translation>必须介于投影的 eta（%1）与 1 之间，实际为 %2</translation>
    </message>
    <message>
        <source>dilated, intended and eroded designs</source>
        <translation>膨胀、目标和腐蚀三个设计</translation>
    </message>
    <message>
        <source>Robust design (Wang, Lazarov and Sigmund 2011): each iteration also projects the filtered density at the dilated and eroded thresholds (the designs of an over- and an under-etch by about the filter&apos;s edge width) and raises the worst of the three figures of merit. Three times the runs; needs MMA or CCSA (L-BFGS is replaced by MMA in the same step).</source>
        <translation>稳健设计（Wang、Lazarov 与 Sigmund 2011）：每次迭代还在膨胀阈值和腐蚀阈值处投影滤波后的密度（即刻蚀不足和过刻蚀约一个滤波器边缘宽度时的设计），并提升三者中最差的品质因数。运行次数为三倍；需要 MMA 或 CCSA（L-BFGS 会在同一步中被替换为 MMA）。</translation>
    </message>
    <message>
        <source>Turn robust design on</source>
        <translation>开启稳健设计</translation>
    </message>
    <message>
        <source>Turn robust design off</source>
        <translation>关闭稳健设计</translation>
    </message>
    <message>
        <source>Robust design</source>
        <translation>稳健设计</translation>
    </message>
    <message>
        <source>Dilated threshold</source>
        <translation>膨胀阈值</translation>
    </message>
    <message>
        <source>Edit robust design</source>
        <translation>编辑稳健设计</translation>
    </message>
    <message>
        <source>Eroded threshold</source>
        <translation>腐蚀阈值</translation>
    </message>
    <message>
        <source>The projection threshold of the dilated design: 0 &lt; it &lt; the projection&apos;s eta (%1)</source>
        <translation>膨胀设计的投影阈值：0 &lt; 阈值 &lt; 投影的 eta（%1）</translation>
    </message>
    <message>
        <source>The projection threshold of the eroded design: the projection&apos;s eta (%1) &lt; it &lt; 1</source>
        <translation>腐蚀设计的投影阈值：投影的 eta（%1）&lt; 阈值 &lt; 1</translation>
    </message>
    <message>
        <source>must lie between 0 and 1, found %1</source>
        <translation>必须介于 0 与 1 之间，实际为 %1</translation>
    </message>
    <message>
        <source>must lie between the robust design&apos;s dilated threshold (%1) and eroded threshold (%2), found %3</source>
        <translation>必须介于鲁棒设计的膨胀阈值（%1）与腐蚀阈值（%2）之间，实际为 %3</translation>
    </message>
    <message>
        <source>Projection threshold</source>
        <translation>投影阈值</translation>
    </message>
    <message>
        <source>The projection&apos;s threshold eta: filtered densities above it become the solid material (rho = 1), below it the other one. 0 &lt; eta &lt; 1, usually 0.5; with the robust design between its dilated and eroded thresholds.</source>
        <translation>投影的阈值 eta：滤波后高于它的密度成为实体材料（rho = 1），低于它的成为另一种材料。0 &lt; eta &lt; 1，通常为 0.5；使用鲁棒设计时须介于其膨胀阈值与腐蚀阈值之间。</translation>
    </message>
</context>
<context>
    <name>golightly::editor::RunChecks</name>
    <message>
        <source>layer &quot;%1&quot;</source>
        <translation>图层“%1”</translation>
    </message>
    <message>
        <source>shape %1</source>
        <translation>形状 %1</translation>
    </message>
    <message>
        <source>source &quot;%1&quot;</source>
        <translation>光源“%1”</translation>
    </message>
    <message>
        <source>monitor &quot;%1&quot;</source>
        <translation>监视器“%1”</translation>
    </message>
    <message>
        <source>material &quot;%1&quot;</source>
        <translation>材料“%1”</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>The reflection monitor &quot;%1&quot; is behind the source &quot;%2&quot; (which sends its wave towards %3): it sees the source&apos;s backward wave instead of the light reflected by the device. Move it between the source and the device.</source>
        <translation>反射监视器“%1”位于光源“%2”（向 %3 方向发射）的后方：它测到的是光源向后发出的波，而不是器件反射的光。请将其移到光源和器件之间。</translation>
    </message>
    <message>
        <source>Set up normalization</source>
        <translation>设置归一化</translation>
    </message>
    <message>
        <source>Normalization on: the reference run has the source in the empty background; spectra are shown as T and R from the next run.</source>
        <translation>归一化已开启：参考运行中光源位于空背景中；从下一次运行起光谱显示为 T 和 R。</translation>
    </message>
    <message>
        <source>Normalization on: the reference run uses the layers %1; spectra are shown as T and R from the next run.</source>
        <translation>归一化已开启：参考运行使用图层 %1；从下一次运行起光谱显示为 T 和 R。</translation>
    </message>
    <message>
        <source>Added the reference-only layers %1: the input waveguide under each mode source, extended through the domain (edit or delete them in the Layers dock).</source>
        <translation>已添加仅用于参考运行的图层 %1：每个模式源下的输入波导，沿传播方向延伸贯穿整个计算区域（可在图层面板中编辑或删除）。</translation>
    </message>
    <message>
        <source>No waveguide under the mode sources %1 to derive a reference from.</source>
        <translation>模式源 %1 下没有波导，无法由此推导参考结构。</translation>
    </message>
    <message>
        <source>The reference (normalization) run has no guide under the mode source &quot;%1&quot; (%2 = %3 µm): the run derives the input waveguide for it; untick and tick Normalize to add it as a reference-only layer you can see and edit.</source>
        <translation>参考（归一化）运行在模式源“%1”（%2 = %3 µm）下没有波导：运行时会为其推导输入波导；关闭再打开“归一化”即可将其添加为可见、可编辑的仅用于参考运行的图层。</translation>
    </message>
    <message>
        <source>The reference (normalization) run has no guide under the mode source &quot;%1&quot; (%2 = %3 µm), so it will fail: add a reference-only layer with the input waveguide and tick it under Reference layers, or untick every reference layer and switch Normalize off and on to derive it.</source>
        <translation>参考（归一化）运行在模式源“%1”（%2 = %3 µm）下没有波导，运行将失败：请添加一个包含输入波导的仅用于参考运行的图层，并在“参考图层”中勾选它；或取消勾选所有参考图层，再关闭并重新打开“归一化”以自动推导。</translation>
    </message>
</context>
<context>
    <name>golightly::editor::RunSetupDock</name>
    <message>
        <source>Run setup</source>
        <translation>运行设置</translation>
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
        <translation>周期</translation>
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
        <translation>用参考运行进行归一化</translation>
    </message>
    <message>
        <source>Layers of the reference (normalization) run, e.g. the straight waveguide</source>
        <translation>参考（归一化）运行的图层，例如直波导</translation>
    </message>
    <message>
        <source>Monitor that measures the incident flux (default: the first reflection, else transmission monitor)</source>
        <translation>测量入射通量的监视器（默认：第一个反射监视器，否则为透射监视器）</translation>
    </message>
    <message>
        <source>Tangential (default)</source>
        <translation>切向（默认）</translation>
    </message>
    <message>
        <source>Staircase</source>
        <translation>阶梯近似</translation>
    </message>
    <message>
        <source>Fill fraction</source>
        <translation>填充比例</translation>
    </message>
    <message>
        <source>Conformal</source>
        <translation>共形</translation>
    </message>
    <message>
        <source>On metal faces along the grid axes, the metal&apos;s full eps(omega) averaged as for dielectrics, realized exactly by poles of each cut cell; curved metals as Tangential</source>
        <translation>在沿网格轴的金属面上，按介质的方式平均金属的完整 eps(omega)，由每个被切割单元自身的极点精确实现；弯曲金属按切向处理</translation>
    </message>
    <message>
        <source>Metal poles averaged for E along the surface, staircased for E normal to it: never worse than staircasing</source>
        <translation>沿表面的电场分量对金属极点取平均，垂直于表面的分量采用阶梯近似：绝不比阶梯近似差</translation>
    </message>
    <message>
        <source>Cells cut by a metal take the material that fills most of the cell, as Lumerical does</source>
        <translation>被金属切割的网格单元取占据其大部分体积的材料，与 Lumerical 相同</translation>
    </message>
    <message>
        <source>Metal poles weighted by the fill fraction for every component: absorbs spuriously at curved surfaces (for comparison)</source>
        <translation>所有分量的金属极点按填充比例加权：在弯曲表面产生虚假吸收（仅供比较）</translation>
    </message>
    <message>
        <source>How cells cut by a dispersive (Lorentz/Drude) material are averaged</source>
        <translation>被色散（洛伦兹/德鲁德）材料切割的网格单元如何取平均</translation>
    </message>
    <message>
        <source>Metals at cut cells</source>
        <translation>金属切割单元</translation>
    </message>
    <message>
        <source>Set metal averaging</source>
        <translation>设置金属平均方式</translation>
    </message>
    <message>
        <source>Sub-pixel averaging</source>
        <translation>亚像素平均</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
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
        <translation>计算域 x</translation>
    </message>
    <message>
        <source>Domain y</source>
        <translation>计算域 y</translation>
    </message>
    <message>
        <source>Cell size</source>
        <translation>网格尺寸</translation>
    </message>
    <message>
        <source>Polarization</source>
        <translation>偏振</translation>
    </message>
    <message>
        <source>Boundary x</source>
        <translation>x 边界</translation>
    </message>
    <message>
        <source>Boundary y</source>
        <translation>y 边界</translation>
    </message>
    <message>
        <source>PML cells</source>
        <translation>PML 层数</translation>
    </message>
    <message>
        <source>Shortest wavelength</source>
        <translation>最短波长</translation>
    </message>
    <message>
        <source>Longest wavelength</source>
        <translation>最长波长</translation>
    </message>
    <message>
        <source>Spectrum points</source>
        <translation>光谱点数</translation>
    </message>
    <message>
        <source>Courant number</source>
        <translation>Courant 数</translation>
    </message>
    <message>
        <source>Stop at decay</source>
        <translation>衰减至此停止</translation>
    </message>
    <message>
        <source>Max time</source>
        <translation>最长时间</translation>
    </message>
    <message>
        <source>Reference layers</source>
        <translation>参考图层</translation>
    </message>
    <message>
        <source>Incident monitor</source>
        <translation>入射监视器</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Set domain size</source>
        <translation>设置计算域尺寸</translation>
    </message>
    <message>
        <source>Set cell size</source>
        <translation>设置网格尺寸</translation>
    </message>
    <message>
        <source>Set spectrum</source>
        <translation>设置光谱</translation>
    </message>
    <message>
        <source>Set Courant number</source>
        <translation>设置 Courant 数</translation>
    </message>
    <message>
        <source>Set stop criterion</source>
        <translation>设置停止条件</translation>
    </message>
    <message>
        <source>Set PML cells</source>
        <translation>设置 PML 层数</translation>
    </message>
    <message>
        <source>Set polarization</source>
        <translation>设置偏振</translation>
    </message>
    <message>
        <source>Set boundaries</source>
        <translation>设置边界条件</translation>
    </message>
    <message>
        <source>Set backend</source>
        <translation>设置后端</translation>
    </message>
    <message>
        <source>Set precision</source>
        <translation>设置精度</translation>
    </message>
    <message>
        <source>Set normalization</source>
        <translation>设置归一化</translation>
    </message>
    <message>
        <source>Set reference layers</source>
        <translation>设置参考图层</translation>
    </message>
    <message>
        <source>Set incident monitor</source>
        <translation>设置入射监视器</translation>
    </message>
    <message>
        <source>Set sub-pixel averaging</source>
        <translation>设置亚像素平均</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 cells</source>
        <translation>每波长 %1 个网格单元（%3 µm 处 n = %2）；网格 %4 × %5 个单元</translation>
    </message>
    <message>
        <source>At least 10 cells per wavelength in the densest material are recommended; 20+ for accurate phase.</source>
        <translation>建议在折射率最高的材料中每波长至少 10 个网格单元；要获得准确的相位需 20 个以上。</translation>
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
        <translation>2D（z 方向一个网格单元，TMz 或 TEz）或 3D（全部六个场分量）；切换时保留绘图：图层按其 z 范围拉伸</translation>
    </message>
    <message>
        <source>The slice of the 3D grid the field view shows when a run starts (changeable while running in the Run tool bar)</source>
        <translation>运行开始时场视图显示的 3D 网格切片（运行期间可在“运行”工具栏中更改）</translation>
    </message>
    <message>
        <source>Position of the slice along its normal</source>
        <translation>切片沿其法向的位置</translation>
    </message>
    <message>
        <source>Dimensions</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>Domain z</source>
        <translation>计算域 z</translation>
    </message>
    <message>
        <source>Boundary z</source>
        <translation>z 边界</translation>
    </message>
    <message>
        <source>Slice plane</source>
        <translation>切片平面</translation>
    </message>
    <message>
        <source>Slice position</source>
        <translation>切片位置</translation>
    </message>
    <message>
        <source>Set slice</source>
        <translation>设置切片</translation>
    </message>
    <message>
        <source>Switch to 3D</source>
        <translation>切换到 3D</translation>
    </message>
    <message>
        <source>Switch to 2D</source>
        <translation>切换到 2D</translation>
    </message>
    <message>
        <source>%1 cells per wavelength (n = %2 at %3 µm); grid %4 x %5 x %6 cells</source>
        <translation>每波长 %1 个网格单元（%3 µm 处 n = %2）；网格 %4 × %5 × %6 个单元</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>even (+1, PMC plane)</source>
        <translation>偶 (+1, PMC 面)</translation>
    </message>
    <message>
        <source>odd (-1, PEC plane)</source>
        <translation>奇 (-1, PEC 面)</translation>
    </message>
    <message>
        <source>Mirror symmetry through the domain&apos;s centre plane normal to %1: the run simulates the upper half only (half the cost) and reports the whole domain. Even: E tangential to the plane is even (a z dipole is even in x and y); odd: it is odd (a z dipole is odd in z).</source>
        <translation>关于区域中心面（法向为 %1）的镜像对称：仿真只计算上半部分（一半的代价），并给出整个区域的结果。偶：与该面相切的 E 为偶（z 偶极子在 x、y 上为偶）；奇：为奇（z 偶极子在 z 上为奇）。</translation>
    </message>
    <message>
        <source>Symmetry x</source>
        <translation>对称 x</translation>
    </message>
    <message>
        <source>Symmetry y</source>
        <translation>对称 y</translation>
    </message>
    <message>
        <source>Symmetry z</source>
        <translation>对称 z</translation>
    </message>
    <message>
        <source>Set symmetry</source>
        <translation>设置对称</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source>this field takes a number only</source>
        <translation>此字段只接受数字</translation>
    </message>
</context>
<context>
    <name>golightly::editor::SelectTool</name>
    <message>
        <source>Rotate shape</source>
        <translation>旋转形状</translation>
    </message>
    <message>
        <source>Resize shape</source>
        <translation>调整形状大小</translation>
    </message>
    <message>
        <source>Select</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>Click to select; drag to move; drag a corner handle to resize, Shift+drag it to rotate; Del deletes, Ctrl+D duplicates</source>
        <translation>单击选择；拖动移动；拖动角点手柄调整大小，按住 Shift 拖动旋转；Del 删除，Ctrl+D 复制</translation>
    </message>
</context>
<context>
    <name>golightly::editor::SolidTool</name>
    <message>
        <source>Draw sphere</source>
        <translation>绘制球体</translation>
    </message>
    <message>
        <source>Draw box</source>
        <translation>绘制长方体</translation>
    </message>
    <message>
        <source>Sphere</source>
        <translation>球体</translation>
    </message>
    <message>
        <source>Box</source>
        <translation>长方体</translation>
    </message>
    <message>
        <source>Drag from the centre outwards to draw a sphere (3D); its z centre is the middle of the layer&apos;s z range</source>
        <translation>从中心向外拖动以绘制球体 (3D)；其 z 中心为图层 z 范围的中点</translation>
    </message>
    <message>
        <source>Drag from corner to corner to draw a box (3D) over the layer&apos;s z range; z in the Properties dock</source>
        <translation>从一角拖到对角，在图层的 z 范围内绘制长方体 (3D)；z 在属性面板中设置</translation>
    </message>
</context>
<context>
    <name>golightly::editor::SourceTool</name>
    <message>
        <source>Point source</source>
        <translation>点光源</translation>
    </message>
    <message>
        <source>Line source</source>
        <translation>线光源</translation>
    </message>
    <message>
        <source>Region source</source>
        <translation>区域光源</translation>
    </message>
</context>
<context>
    <name>golightly::editor::StepFileReader</name>
    <message>
        <source>Reading %1 was cancelled.</source>
        <translation>已取消读取 %1。</translation>
    </message>
    <message>
        <source>Cannot import the STEP file %1:
%2</source>
        <translation>无法导入 STEP 文件 %1：
%2</translation>
    </message>
</context>
<context>
    <name>golightly::editor::StepImportDialog</name>
    <message>
        <source>Section at z = %1 µm</source>
        <translation>z = %1 µm 处的截面</translation>
    </message>
    <message>
        <source>Import STEP</source>
        <translation>导入 STEP</translation>
    </message>
    <message>
        <source>Reading... %p%</source>
        <translation>正在读取... %p%</translation>
    </message>
    <message>
        <source>Cancel reading</source>
        <translation>取消读取</translation>
    </message>
    <message>
        <source>Placement</source>
        <translation>放置</translation>
    </message>
    <message>
        <source>File unit</source>
        <translation>文件单位</translation>
    </message>
    <message>
        <source> µm per unit</source>
        <translation> µm/单位</translation>
    </message>
    <message>
        <source>Length of one file unit in µm (the file&apos;s own unit is proposed: mm = 1000)</source>
        <translation>一个文件单位的长度（µm）（建议使用文件自身的单位：mm = 1000）</translation>
    </message>
    <message>
        <source>Unit scale</source>
        <translation>单位比例</translation>
    </message>
    <message>
        <source> µm</source>
        <translation> µm</translation>
    </message>
    <message>
        <source> deg</source>
        <translation> 度</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Rotation</source>
        <translation>旋转</translation>
    </message>
    <message>
        <source>Centre in domain</source>
        <translation>在区域中居中</translation>
    </message>
    <message>
        <source>Centre the part in x and y in the domain and put the slice plane through the middle of its z range</source>
        <translation>将部件在 x 和 y 方向居中于区域内，并使切片平面穿过其 z 范围的中部</translation>
    </message>
    <message>
        <source>Fit into domain</source>
        <translation>适配到区域</translation>
    </message>
    <message>
        <source>Choose the scale so that the part spans 80 % of the domain, then centre it</source>
        <translation>选择比例使部件占区域的 80%，然后居中</translation>
    </message>
    <message>
        <source>Solid</source>
        <translation>实体</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Size (µm)</source>
        <translation>尺寸 (µm)</translation>
    </message>
    <message>
        <source>Section area (µm²)</source>
        <translation>截面面积 (µm²)</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>图层</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>材料</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>transferring</source>
        <translation>转换</translation>
    </message>
    <message>
        <source>solids</source>
        <translation>实体</translation>
    </message>
    <message>
        <source>Reading (%1)... %p%</source>
        <translation>正在读取（%1）... %p%</translation>
    </message>
    <message>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <source>Reading the file...</source>
        <translation>正在读取文件...</translation>
    </message>
    <message>
        <source>STEP import</source>
        <translation>STEP 导入</translation>
    </message>
    <message>
        <source>%1 (1 unit = %2 µm)</source>
        <translation>%1（1 单位 = %2 µm）</translation>
    </message>
    <message>
        <source>not given</source>
        <translation>未给出</translation>
    </message>
    <message>
        <source>Include this solid</source>
        <translation>包含此实体</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>An existing layer, or type the name of a new one</source>
        <translation>现有图层，或输入新图层的名称</translation>
    </message>
    <message>
        <source>new: %1 (eps 2.25)</source>
        <translation>新建：%1（eps 2.25）</translation>
    </message>
    <message>
        <source>The material of a new layer (an existing layer keeps its own)</source>
        <translation>新图层的材料（现有图层保留其自身材料）</translation>
    </message>
    <message>
        <source>misses the slice plane</source>
        <translation>未与切片平面相交</translation>
    </message>
    <message>
        <source>Cannot cut the solids: %1</source>
        <translation>无法切割实体：%1</translation>
    </message>
    <message>
        <source>No solid is included.</source>
        <translation>未包含任何实体。</translation>
    </message>
    <message numerus="yes">
        <source>%n chosen solid(s) do not cross the slice plane z = %1 µm: %2. Move the part (translation z), change the slice plane or leave them out.</source>
        <translation>
            <numerusform>%n 个所选实体未与切片平面 z = %1 µm 相交：%2。请移动部件（平移 z）、更改切片平面或将其排除。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n solid(s) cross the slice plane z = %1 µm.</source>
        <translation>
            <numerusform>%n 个实体与切片平面 z = %1 µm 相交。</numerusform>
        </translation>
    </message>
    <message>
        <source>No STEP file is loaded.</source>
        <translation>未加载 STEP 文件。</translation>
    </message>
    <message>
        <source>Cannot import %1: the solids on the new layer &quot;%2&quot; have different materials (%3, %4); a layer has one material.</source>
        <translation>无法导入 %1：新图层“%2”上的实体材料不同（%3、%4）；一个图层只有一种材料。</translation>
    </message>
    <message>
        <source>Cannot import %1: no solid is included.</source>
        <translation>无法导入 %1：未包含任何实体。</translation>
    </message>
    <message>
        <source>Cannot import %1:
%2</source>
        <translation>无法导入 %1：
%2</translation>
    </message>
    <message>
        <source>Import STEP %1</source>
        <translation>导入 STEP %1</translation>
    </message>
    <message>
        <source>Re-import STEP</source>
        <translation>重新导入 STEP</translation>
    </message>
    <message>
        <source>Select an imported STEP part to re-import.</source>
        <translation>请选择要重新导入的已导入 STEP 部件。</translation>
    </message>
    <message>
        <source>Cannot re-import %1:
%2</source>
        <translation>无法重新导入 %1：
%2</translation>
    </message>
    <message>
        <source>Re-import STEP %1</source>
        <translation>重新导入 STEP %1</translation>
    </message>
    <message>
        <source>Height of the slice plane: the 2D simulation uses the section of the solids at this z (the project&apos;s slice plane, changed on Import)</source>
        <translation>切片平面高度：二维仿真使用实体在该 z 处的截面（项目的切片平面，导入时更改）</translation>
    </message>
    <message>
        <source>Slice plane z</source>
        <translation>切片平面 z</translation>
    </message>
    <message>
        <source>3D project: the solids keep their 3D shape, placed in z by the translation&apos;s z; this plane only chooses the section shown here (and &quot;Centre in domain&quot; puts the part&apos;s middle on it)</source>
        <translation>3D 项目：实体保持其三维形状，在 z 方向按平移的 z 值放置；此平面仅用于选择此处显示的截面（“在区域中居中”会将部件的中部置于该平面上）</translation>
    </message>
    <message>
        <source>Section z (preview)</source>
        <translation>截面 z（预览）</translation>
    </message>
    <message>
        <source>No solid crosses the slice plane z = %1 µm. Move the part (translation z) or change the slice plane.</source>
        <translation>没有实体与切片平面 z = %1 µm 相交。请移动零件（平移 z）或更改切片平面。</translation>
    </message>
    <message numerus="yes">
        <source>%n solid(s) cross the slice plane z = %1 µm; %2 that miss it are left out (tick one to include it).</source>
        <translation>
            <numerusform>%n 个实体与切片平面 z = %1 µm 相交；%2 个未相交的实体不导入（勾选即可包含）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (z %2 to %3 µm)</source>
        <translation>%1（z %2 到 %3 µm）</translation>
    </message>
    <message numerus="yes">
        <source>Cannot import %1: %n ticked solid(s) do not cross the slice plane at z = %2 µm: %3.

Move the part up or down (Translation z), change the slice plane, or untick those solids.</source>
        <translation>
            <numerusform>无法导入 %1：%n 个已勾选的实体不与 z = %2 µm 处的切片平面相交：%3。

请上下移动零件（平移 z）、更改切片平面，或取消勾选这些实体。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot import %1: no solid is ticked; none of them cross the slice plane at z = %2 µm. Move the part up or down (Translation z) or change the slice plane.</source>
        <translation>无法导入 %1：没有勾选任何实体；所有实体都不与 z = %2 µm 处的切片平面相交。请上下移动零件（平移 z）或更改切片平面。</translation>
    </message>
    <message>
        <source>Not imported: with %1 %2.</source>
        <translation>未导入：含 %1 %2。</translation>
    </message>
    <message>
        <source>Not re-imported: with %1 %2.</source>
        <translation>未重新导入：含 %1 %2。</translation>
    </message>
</context>
<context>
    <name>golightly::editor::Switch3dDialog</name>
    <message>
        <source>under a second</source>
        <translation>不到一秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 G</source>
        <translation>%1 G</translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation>%1 M</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 cells&lt;/b&gt; (%2 × %3 × %4, PML included)</source>
        <translation>&lt;b&gt;%1 个网格单元&lt;/b&gt;（%2 × %3 × %4，含 PML）</translation>
    </message>
    <message>
        <source>&lt;b&gt;memory about %1&lt;/b&gt; for the run, %2 while compiling</source>
        <translation>&lt;b&gt;运行约需内存 %1&lt;/b&gt;，编译时 %2</translation>
    </message>
    <message>
        <source>(more than this computer&apos;s %1: the run cannot start)</source>
        <translation>（超过本机的 %1：无法开始运行）</translation>
    </message>
    <message>
        <source>(more than half of this computer&apos;s %1)</source>
        <translation>（超过本机 %1 的一半）</translation>
    </message>
    <message>
        <source>&lt;b&gt;compiling about %1&lt;/b&gt; before the first step</source>
        <translation>&lt;b&gt;编译约 %1&lt;/b&gt;，之后才开始第一步</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;1000 time steps about %1&lt;/b&gt; on %n CPU thread(s) (a GPU is many times faster)</source>
        <translation>
            <numerusform>&lt;b&gt;1000 个时间步约 %1&lt;/b&gt;，使用 %n 个 CPU 线程（GPU 要快许多倍）</numerusform>
        </translation>
    </message>
    <message>
        <source>the run ends when the fields have decayed, at most after %1 steps (about %2)</source>
        <translation>场衰减后运行结束，最多 %1 步（约 %2）</translation>
    </message>
    <message>
        <source>Switch to 3D</source>
        <translation>切换到 3D</translation>
    </message>
    <message>
        <source>The 2D drawing becomes a 3D device: each layer is extruded over a z range, sources and monitors become planes, ports become planes around the core. A 3D grid has many more cells than the 2D one; this is what it will cost:</source>
        <translation>二维图形将成为三维器件：每个图层沿 z 范围拉伸，光源和监视器变为平面，端口变为围绕芯层的平面。三维网格的单元远多于二维网格；所需代价如下：</translation>
    </message>
    <message>
        <source>The 3D cell size: doubling it divides the cells by 8 and the time by 16</source>
        <translation>三维网格单元尺寸：加倍后单元数减为 1/8，时间减为 1/16</translation>
    </message>
    <message>
        <source>Cell size</source>
        <translation>网格单元尺寸</translation>
    </message>
    <message>
        <source>Layers as a 220 nm SOI stack (core, buried oxide below, cladding above)</source>
        <translation>图层按 220 nm SOI 叠层（芯层、下方埋氧层、上方包层）</translation>
    </message>
    <message>
        <source>Off: every layer without a z range spans the whole domain height</source>
        <translation>关闭：没有 z 范围的图层占据整个计算区域高度</translation>
    </message>
    <message>
        <source>The Layer Stack dock edits the z ranges afterwards; Undo switches back.</source>
        <translation>之后可在图层叠层面板中修改 z 范围；撤销即可切换回去。</translation>
    </message>
    <message>
        <source>the whole height</source>
        <translation>整个高度</translation>
    </message>
    <message>
        <source>core</source>
        <translation>芯层</translation>
    </message>
    <message>
        <source>below the core</source>
        <translation>芯层下方</translation>
    </message>
    <message>
        <source>above the core</source>
        <translation>芯层上方</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message numerus="yes">
        <source>%n port plane(s): %1</source>
        <translation>
            <numerusform>%n 个端口平面：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Domain height %1 µm. z ranges:</source>
        <translation>计算区域高度 %1 µm。z 范围：</translation>
    </message>
</context>
<context>
    <name>golightly::editor::Tool</name>
    <message>
        <source>Add a layer first (Layers dock).</source>
        <translation>请先添加图层（图层面板）。</translation>
    </message>
    <message>
        <source>The current layer &quot;%1&quot; is locked.</source>
        <translation>当前图层“%1”已锁定。</translation>
    </message>
    <message>
        <source>The current layer &quot;%1&quot; is hidden.</source>
        <translation>当前图层“%1”已隐藏。</translation>
    </message>
</context>
<context>
    <name>golightly::plots::FarFieldView</name>
    <message>
        <source>Polar plot (2D), theta-phi map (3D) or cartesian curves (2D: against phi; 3D: the phi = 0 and 90 degree cuts against theta)</source>
        <translation>极坐标图（2D）、theta-phi 图（3D）或直角坐标曲线（2D：随 phi 变化；3D：phi = 0 与 90 度切面随 theta 变化）</translation>
    </message>
    <message>
        <source>Directivity</source>
        <translation>方向性系数</translation>
    </message>
    <message>
        <source>Radiation intensity</source>
        <translation>辐射强度</translation>
    </message>
    <message>
        <source>Directivity: the intensity over its average over all directions; radiation intensity: power per steradian (per radian in 2D), in the DFT units of the spectra</source>
        <translation>方向性系数：强度除以其在所有方向上的平均值；辐射强度：每球面度的功率（2D 中为每弧度），单位与光谱的 DFT 单位相同</translation>
    </message>
    <message>
        <source>dB</source>
        <translation>dB</translation>
    </message>
    <message>
        <source>10 log10 of the quantity; %1 dB below the peak are shown</source>
        <translation>该量的 10 log10；显示峰值以下 %1 dB</translation>
    </message>
    <message>
        <source>The monitor and wavelength the theta-phi map shows</source>
        <translation>theta-phi 图显示的监视器和波长</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Angle (°)</source>
        <translation>角度 (°)</translation>
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
        <translation>方向性系数 (dBi)</translation>
    </message>
    <message>
        <source>Radiation intensity (dB)</source>
        <translation>辐射强度 (dB)</translation>
    </message>
    <message>
        <source>Polar</source>
        <translation>极坐标</translation>
    </message>
    <message>
        <source>Cartesian</source>
        <translation>直角坐标</translation>
    </message>
    <message>
        <source>Theta-phi map</source>
        <translation>theta-phi 图</translation>
    </message>
    <message>
        <source>Principal cuts</source>
        <translation>主切面</translation>
    </message>
    <message>
        <source>, phi %1°</source>
        <translation>，phi %1°</translation>
    </message>
</context>
<context>
    <name>golightly::plots::MonitorsDock</name>
    <message>
        <source>Monitors</source>
        <translation>监视器</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>尚未运行。</translation>
    </message>
    <message>
        <source>Wavelength (µm)</source>
        <translation>波长 (µm)</translation>
    </message>
    <message>
        <source>Flux (raw)</source>
        <translation>通量（原始）</translation>
    </message>
    <message>
        <source>Time (fs)</source>
        <translation>时间 (fs)</translation>
    </message>
    <message>
        <source>Energy below peak (dB)</source>
        <translation>低于峰值的能量 (dB)</translation>
    </message>
    <message>
        <source>Spectra</source>
        <translation>光谱</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时域</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>能量</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Rescale the axes to the data</source>
        <translation>按数据重新缩放坐标轴</translation>
    </message>
    <message>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <source>Save the current plot as PNG, PDF or CSV</source>
        <translation>将当前图表保存为 PNG、PDF 或 CSV</translation>
    </message>
    <message>
        <source>Running...</source>
        <translation>正在运行...</translation>
    </message>
    <message>
        <source> - not comparable (edited)</source>
        <translation> - 不可比较（已编辑）</translation>
    </message>
    <message>
        <source> (spectra normalized)</source>
        <translation>（光谱已归一化）</translation>
    </message>
    <message>
        <source> (raw spectra)</source>
        <translation>（原始光谱）</translation>
    </message>
    <message>
        <source>main run</source>
        <translation>主运行</translation>
    </message>
    <message>
        <source>Finished: %1 after %2 steps (%3 fs), %4 Mcells/s on %5%6</source>
        <translation>完成：%1，共 %2 步（%3 fs），在 %5 上 %4 M单元/秒%6</translation>
    </message>
    <message>
        <source>; spectra not comparable (edited during the run)</source>
        <translation>；光谱不可比较（运行期间已编辑）</translation>
    </message>
    <message>
        <source>%1 holds no spectra.csv or summary.json</source>
        <translation>%1 中没有 spectra.csv 或 summary.json</translation>
    </message>
    <message>
        <source>Results %1: %2 after %3 steps (%4 fs), %5 Mcells/s on %6</source>
        <translation>结果 %1：%2，共 %3 步（%4 fs），在 %6 上 %5 M单元/秒</translation>
    </message>
    <message>
        <source>No results in %1</source>
        <translation>%1 中没有结果</translation>
    </message>
    <message>
        <source>Results %1</source>
        <translation>结果 %1</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF (*.pdf);;CSV table (*.csv)</source>
        <translation>PNG 图像 (*.png);;PDF (*.pdf);;CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>T, R (normalized)</source>
        <translation>T、R（归一化）</translation>
    </message>
    <message>
        <source>These are raw fluxes (normalization is off). Normalize to get transmission and reflection between 0 and 1.</source>
        <translation>这些是原始通量（归一化已关闭）。归一化后可得到 0 到 1 之间的透射率和反射率。</translation>
    </message>
    <message>
        <source>Normalize</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Turn on the normalization (reference) run in one step; applies from the next run</source>
        <translation>一步开启归一化（参考）运行；从下一次运行起生效</translation>
    </message>
    <message>
        <source>Field at the probe (V/m, A/m)</source>
        <translation>探针处的场 (V/m, A/m)</translation>
    </message>
    <message>
        <source>%1: step %2, %3 fs%4</source>
        <translation>%1：第 %2 步，%3 fs%4</translation>
    </message>
    <message>
        <source>Reference run</source>
        <translation>参考运行</translation>
    </message>
    <message>
        <source>Main run</source>
        <translation>主运行</translation>
    </message>
    <message>
        <source>reference run</source>
        <translation>参考运行</translation>
    </message>
    <message>
        <source>Cross-section (µm²)</source>
        <translation>截面 (µm²)</translation>
    </message>
    <message>
        <source>Cross-section per length (µm)</source>
        <translation>单位长度截面 (µm)</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监视器</translation>
    </message>
    <message>
        <source>Frequency (THz)</source>
        <translation>频率 (THz)</translation>
    </message>
    <message>
        <source>Q</source>
        <translation>Q</translation>
    </message>
    <message>
        <source>Amplitude</source>
        <translation>振幅</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>Resonances</source>
        <translation>谐振</translation>
    </message>
    <message>
        <source>Far field</source>
        <translation>远场</translation>
    </message>
    <message>
        <source>Wavelength</source>
        <translation>波长</translation>
    </message>
    <message>
        <source>Diffraction order</source>
        <translation>衍射级次</translation>
    </message>
    <message>
        <source>Power fraction</source>
        <translation>功率占比</translation>
    </message>
    <message>
        <source>Power per propagating Floquet order of each diffraction monitor at the chosen wavelength (golightly-cli diffraction prints the table)</source>
        <translation>所选波长下每个衍射监视器各传播 Floquet 级次的功率（golightly-cli diffraction 打印该表）</translation>
    </message>
    <message>
        <source>Diffraction</source>
        <translation>衍射</translation>
    </message>
    <message>
        <source>Mode power |a|² (raw)</source>
        <translation>模式功率 |a|²（原始值）</translation>
    </message>
    <message>
        <source>Power in each mode of the mode monitors: forward |a+|² solid, backward |a-|² dashed (spectra.csv: &lt;monitor&gt;_m&lt;k&gt;_fwd_re ...)</source>
        <translation>模式监视器中每个模式的功率：前向 |a+|² 为实线，后向 |a-|² 为虚线（spectra.csv：&lt;monitor&gt;_m&lt;k&gt;_fwd_re ...）</translation>
    </message>
    <message>
        <source>%1 mode %2 backward</source>
        <translation>%1 模式 %2 后向</translation>
    </message>
    <message>
        <source>%1 mode %2 forward</source>
        <translation>%1 模式 %2 前向</translation>
    </message>
    <message>
        <source>Mode power |a|² (of the incident power)</source>
        <translation>模式功率 |a|²（相对入射功率）</translation>
    </message>
    <message>
        <source>fields decayed</source>
        <translation>场已衰减</translation>
    </message>
    <message>
        <source>time limit reached</source>
        <translation>达到时间上限</translation>
    </message>
    <message>
        <source>step limit reached</source>
        <translation>达到步数上限</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>发散</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>resonances found</source>
        <translation>已找到共振</translation>
    </message>
    <message>
        <source>Resonances found by Harminv in the time monitors with &quot;resonances&quot;; select one to mark its wavelength on the spectra, double-click it for a field picture of the mode (a second short run with a narrow-band source)</source>
        <translation>Harminv 在带有“resonances”的时间监视器中找到的谐振；选择一个可在光谱上标出其波长，双击可得到该模式的场图（使用窄带光源的第二次短运行）</translation>
    </message>
    <message>
        <source>transmission</source>
        <translation>透射</translation>
    </message>
    <message>
        <source>reflection</source>
        <translation>反射</translation>
    </message>
    <message>
        <source>flux</source>
        <translation>通量</translation>
    </message>
    <message>
        <source>absorption</source>
        <translation>吸收</translation>
    </message>
    <message>
        <source>scattering</source>
        <translation>散射</translation>
    </message>
    <message>
        <source>mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Spectra of the flux monitors</source>
        <translation>通量监视器的光谱</translation>
    </message>
    <message>
        <source>Time series of the time monitors</source>
        <translation>时间监视器的时间序列</translation>
    </message>
    <message>
        <source>Energy decay of the run</source>
        <translation>运行的能量衰减</translation>
    </message>
    <message>
        <source>Cross-sections of the flux boxes (absorption, scattering)</source>
        <translation>通量盒的截面（吸收、散射）</translation>
    </message>
    <message>
        <source>Resonances found by Harminv in the time monitors</source>
        <translation>Harminv 在时间监视器中找到的谐振</translation>
    </message>
    <message>
        <source>Far fields of the flux boxes with far_field</source>
        <translation>带 far_field 的通量盒的远场</translation>
    </message>
    <message>
        <source>Diffraction orders of the diffraction monitors</source>
        <translation>衍射监视器的衍射级</translation>
    </message>
    <message>
        <source>Mode amplitudes of the mode monitors</source>
        <translation>模式监视器的模式振幅</translation>
    </message>
    <message>
        <source>Cross-sections</source>
        <translation>截面</translation>
    </message>
    <message>
        <source>Mode amplitudes</source>
        <translation>模式振幅</translation>
    </message>
</context>
<context>
    <name>golightly::plots::SParamsView</name>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>All S_ij</source>
        <translation>全部 S_ij</translation>
    </message>
    <message>
        <source>Reflections S_ii</source>
        <translation>反射 S_ii</translation>
    </message>
    <message>
        <source>Transmissions S_ij, i ≠ j</source>
        <translation>透射 S_ij，i ≠ j</translation>
    </message>
    <message>
        <source>Wavelength (µm)</source>
        <translation>波长 (µm)</translation>
    </message>
    <message>
        <source>|S_ij| (dB)</source>
        <translation>|S_ij| (dB)</translation>
    </message>
    <message>
        <source>arg S_ij (degrees)</source>
        <translation>arg S_ij（度）</translation>
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
        <translation>（自动）</translation>
    </message>
    <message>
        <source>(fixed)</source>
        <translation>（固定）</translation>
    </message>
    <message>
        <source>%1   t = %2 fs   step %3</source>
        <translation>%1   t = %2 fs   第 %3 步</translation>
    </message>
    <message>
        <source>No field yet: Run (F5) to start the simulation</source>
        <translation>尚无场数据：按“运行”(F5) 开始仿真</translation>
    </message>
    <message>
        <source>host frame upload (this build has no CUDA-OpenGL interop)</source>
        <translation>经主机上传图像（此版本不含 CUDA-OpenGL 互操作）</translation>
    </message>
    <message>
        <source>host frame upload (%1)</source>
        <translation>经主机上传图像（%1）</translation>
    </message>
    <message>
        <source>CUDA-OpenGL interop (%1)</source>
        <translation>CUDA-OpenGL 互操作（%1）</translation>
    </message>
    <message>
        <source>host frame upload (interop failed: %1)</source>
        <translation>经主机上传图像（互操作失败：%1）</translation>
    </message>
    <message>
        <source>%1: waiting for the first field...</source>
        <translation>%1：正在等待第一帧场...</translation>
    </message>
    <message>
        <source>   slice %1 at %2 = %3 µm</source>
        <translation>   切片 %1，%2 = %3 µm</translation>
    </message>
</context>
<context>
    <name>golightly::viewport::StructureView3D</name>
    <message>
        <source>3D structure: drag to orbit, right/middle drag (or Shift+drag) to pan, wheel to zoom; click an item to select it in the editor</source>
        <translation>3D 结构：拖动以环绕旋转，右键/中键拖动（或 Shift+拖动）以平移，滚轮缩放；单击对象可在编辑器中选中</translation>
    </message>
    <message>
        <source>raster (QPainter; no OpenGL context on this platform)</source>
        <translation>光栅绘制（QPainter；此平台无 OpenGL 上下文）</translation>
    </message>
    <message>
        <source>No project</source>
        <translation>无项目</translation>
    </message>
    <message>
        <source>2D project: layers shown over the z extent they get in 3D</source>
        <translation>2D 项目：图层按其在 3D 中的 z 范围显示</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>GoLightly FDTD IDE</source>
        <translation>GoLightly 时域有限差分集成开发环境</translation>
    </message>
    <message>
        <source>Print the version.</source>
        <translation>输出版本信息。</translation>
    </message>
    <message>
        <source>Save a picture of the window to FILE and quit.</source>
        <translation>将窗口截图保存到 FILE 并退出。</translation>
    </message>
    <message>
        <source>Start with the structure preview on.</source>
        <translation>启动时打开结构预览。</translation>
    </message>
    <message>
        <source>Project file to open.</source>
        <translation>要打开的项目文件。</translation>
    </message>
    <message>
        <source>Start a run of the project after opening it.</source>
        <translation>打开项目后开始运行。</translation>
    </message>
    <message>
        <source>With --run --screenshot: picture of PHASE (main or reference).</source>
        <translation>与 --run --screenshot 一起使用：PHASE 阶段的截图（main 或 reference）。</translation>
    </message>
</context>
</TS>
