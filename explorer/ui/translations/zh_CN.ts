<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BannerWidget</name>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>CodeEditor</name>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>Undo the last edit</source>
        <translation>撤销上一次编辑</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Redo the edit just undone</source>
        <translation>恢复刚才撤销的编辑</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>Cut the selection to the clipboard</source>
        <translation>把选中的内容剪切到剪贴板</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selection to the clipboard</source>
        <translation>把选中的内容复制到剪贴板</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Paste the clipboard</source>
        <translation>粘贴剪贴板里的内容</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>Select the whole script</source>
        <translation>选中整个脚本</translation>
    </message>
    <message>
        <source>Toggle &amp;Comment</source>
        <translation>注释/取消注释(&amp;C)</translation>
    </message>
    <message>
        <source>Comment the selected lines out with #, or back in</source>
        <translation>用 # 把选中的行注释掉，或者取消注释</translation>
    </message>
    <message>
        <source>&amp;Indent</source>
        <translation>增加缩进(&amp;I)</translation>
    </message>
    <message>
        <source>Indent the selected lines one level (4 spaces)</source>
        <translation>选中的行增加一级缩进（4 个空格）</translation>
    </message>
    <message>
        <source>&amp;Dedent</source>
        <translation>减少缩进(&amp;D)</translation>
    </message>
    <message>
        <source>Remove one level of indentation from the selected lines</source>
        <translation>选中的行减少一级缩进</translation>
    </message>
    <message>
        <source>D&amp;uplicate Line</source>
        <translation>复制当前行(&amp;U)</translation>
    </message>
    <message>
        <source>Copy the selected lines below themselves</source>
        <translation>把选中的行复制一份，放在它们下面</translation>
    </message>
    <message>
        <source>Move Line U&amp;p</source>
        <translation>上移一行(&amp;P)</translation>
    </message>
    <message>
        <source>Move the selected lines up by one line</source>
        <translation>把选中的行向上移动一行</translation>
    </message>
    <message>
        <source>Move Line Do&amp;wn</source>
        <translation>下移一行(&amp;W)</translation>
    </message>
    <message>
        <source>Move the selected lines down by one line</source>
        <translation>把选中的行向下移动一行</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Find text in the script</source>
        <translation>在脚本里查找文字</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Go to the next match</source>
        <translation>跳到下一个匹配</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <source>Go to the previous match</source>
        <translation>跳到上一个匹配</translation>
    </message>
    <message>
        <source>R&amp;eplace…</source>
        <translation>替换(&amp;E)…</translation>
    </message>
    <message>
        <source>Find text and replace it</source>
        <translation>查找文字并替换</translation>
    </message>
    <message>
        <source>&amp;Go to Line…</source>
        <translation>跳到行(&amp;G)…</translation>
    </message>
    <message>
        <source>Jump to a line by its number</source>
        <translation>输入行号，跳到那一行</translation>
    </message>
    <message>
        <source>Complete C&amp;ode</source>
        <translation>代码补全(&amp;O)</translation>
    </message>
    <message>
        <source>Show the names that can follow: the kernel&apos;s live objects, or the script&apos;s text while the kernel is busy</source>
        <translation>列出接下来可以写的名字：来自内核里正在运行的对象；内核忙的时候，根据脚本的文字推断</translation>
    </message>
</context>
<context>
    <name>ConsoleWords</name>
    <message>
        <source>The Python console: type code here and press Enter; the variables it makes appear in the inspector too.
</source>
        <translation>Python 控制台：在这里输入代码，按回车运行；它创建的变量也会显示在变量列表里。
</translation>
    </message>
    <message>
        <source>Python {python}, IPython {ipython}. A name followed by ? shows its help.
</source>
        <translation>Python {python}，IPython {ipython}。在名字后面加 ? 可以查看它的帮助。
</translation>
    </message>
    <message>
        <source>Kernel died, restarting</source>
        <translation>内核已退出，正在重启</translation>
    </message>
    <message>
        <source>Kernel restarting</source>
        <translation>内核正在重启</translation>
    </message>
</context>
<context>
    <name>DataDialogs</name>
    <message>
        <source>Open Data</source>
        <translation>打开数据</translation>
    </message>
    <message>
        <source>Data files ({patterns});;All files (*)</source>
        <extracomment>File dialog filters, separated by ;; — {patterns} is the list of file name patterns; keep (*) as is.</extracomment>
        <translation>数据文件 ({patterns});;所有文件 (*)</translation>
    </message>
    <message>
        <source>Load anyway?</source>
        <translation>仍要加载吗？</translation>
    </message>
    <message>
        <source>{message}

Load anyway — this runs code from the file. Only do this for files you trust.</source>
        <translation>{message}

仍要加载吗？加载会运行文件里的代码，请只对你信任的文件这样做。</translation>
    </message>
    <message>
        <source>Load anyway</source>
        <translation>仍然加载</translation>
    </message>
</context>
<context>
    <name>DetailTabsWidget</name>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Stats</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>监视</translation>
    </message>
    <message>
        <source>The tensor drawn as an image, with the channel order fixed automatically</source>
        <translation>把张量画成图像，通道顺序会自动调整好</translation>
    </message>
    <message>
        <source>The numbers themselves: pick two dimensions and slide through the others</source>
        <translation>元素的具体数值：选两个维度排成表格，用滑块浏览其余维度</translation>
    </message>
    <message>
        <source>Minimum, maximum, mean, standard deviation, NaN/Inf counts and a histogram</source>
        <translation>最小值、最大值、均值、标准差、NaN/Inf 的个数和直方图</translation>
    </message>
    <message>
        <source>The memory block behind the variable and which cells each view reaches</source>
        <translation>变量背后的内存块，以及每个视图会访问哪些单元格</translation>
    </message>
    <message>
        <source>The autograd graph backward() will walk, from the leaves to this tensor</source>
        <translation>backward() 将要反向遍历的自动求导计算图：从叶子节点一直到这个张量</translation>
    </message>
    <message>
        <source>Curves of the watched values, drawn while the code runs (a loss falling, a norm growing)</source>
        <translation>监视中的值画成曲线，代码运行时就画出来（损失在下降，范数在增长）</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
</context>
<context>
    <name>ErrorCardView</name>
    <message>
        <source>in the console</source>
        <translation>在控制台中</translation>
    </message>
    <message>
        <source>This code was typed in the console, not in the editor</source>
        <translation>这段代码是在控制台里输入的，不在编辑器中</translation>
    </message>
    <message>
        <source>line {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the fix to the clipboard</source>
        <translation>把解决方法复制到剪贴板</translation>
    </message>
    <message>
        <source>Why</source>
        <extracomment>Heading on the error card above the explanation of the error.</extracomment>
        <translation>原因</translation>
    </message>
    <message>
        <source>Fix</source>
        <extracomment>Heading on the error card above the code that fixes the error.</extracomment>
        <translation>解决方法</translation>
    </message>
    <message>
        <source>Traceback (last lines)</source>
        <translation>回溯信息（最后几行）</translation>
    </message>
    <message>
        <source>Go to this line in the editor</source>
        <translation>在编辑器中跳到这一行</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>FileCountText</name>
    <message numerus="yes">
        <source>%n file(s) could not be opened:</source>
        <translation>
            <numerusform>有 %n 个文件无法打开：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FindBarWidget</name>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation>替换为</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter, Shift+F3)</source>
        <translation>上一个匹配（Shift+Enter、Shift+F3）</translation>
    </message>
    <message>
        <source>Next match (Enter, F3)</source>
        <translation>下一个匹配（Enter、F3）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>Match case (Alt+C)</source>
        <translation>区分大小写（Alt+C）</translation>
    </message>
    <message>
        <source>Whole words only (Alt+W)</source>
        <translation>全字匹配（Alt+W）</translation>
    </message>
    <message>
        <source>Regular expression (Python re syntax; \1 in the replacement is the first group)</source>
        <translation>正则表达式（Python re 的写法；替换内容里的 \1 表示第一个分组）</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Replace this match and go to the next (Enter in the replace field)</source>
        <translation>替换这一处，并跳到下一处（在替换框里按 Enter）</translation>
    </message>
    <message>
        <source>Replace All</source>
        <translation>全部替换</translation>
    </message>
    <message>
        <source>Replace every match (Ctrl+Alt+Enter in the replace field; one Ctrl+Z undoes it)</source>
        <translation>替换所有匹配（在替换框里按 Ctrl+Alt+Enter；按一次 Ctrl+Z 即可全部撤销）</translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>已替换 %n 处</numerusform>
        </translation>
    </message>
    <message>
        <source>Invalid pattern: {error}</source>
        <translation>表达式有误：{error}</translation>
    </message>
    <message>
        <source>No results</source>
        <translation>没有找到</translation>
    </message>
    <message>
        <source>{current} of {total}</source>
        <translation>第 {current} 处，共 {total} 处</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>共 %n 处匹配</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FixProofLabel</name>
    <message>
        <source>checking the fix…</source>
        <extracomment>Short note in the error card&apos;s title row while the fix runs on the learner&apos;s script.</extracomment>
        <translation>正在检验修改…</translation>
    </message>
    <message>
        <source>✓ fix checked</source>
        <extracomment>Short note in the error card&apos;s title row: the fix ran on the learner&apos;s script and got past the error.</extracomment>
        <translation>✓ 修改已检验</translation>
    </message>
    <message>
        <source>✗ the fix does not work</source>
        <translation>✗ 修改不管用</translation>
    </message>
    <message>
        <source>fix not proven</source>
        <translation>修改未能确认</translation>
    </message>
    <message>
        <source>Checking this fix on your script…</source>
        <extracomment>Shown at once under an error card&apos;s fix while the fix runs on the learner&apos;s script.</extracomment>
        <translation>正在用你的脚本检验这个修改…</translation>
    </message>
    <message>
        <source>✓ Checked: with this fix your script runs to the end.</source>
        <translation>✓ 已检验：改成这样后，你的脚本能一直运行到结尾。</translation>
    </message>
    <message>
        <source>✓ Checked: with this fix your script runs past {line}; it was still running {now} when the check stopped after {seconds} s.</source>
        <translation>✓ 已检验：改成这样后，你的脚本能越过{line}；检验在 {seconds} 秒后停止时，它还在运行{now}。</translation>
    </message>
    <message>
        <source>✓ Checked: with this fix your script runs past {line}; it was still running when the check stopped after {seconds} s.</source>
        <translation>✓ 已检验：改成这样后，你的脚本能越过{line}；检验在 {seconds} 秒后停止时，它还在运行。</translation>
    </message>
    <message>
        <source>Not proven: after {seconds} s the fixed script had not got past {line} yet.</source>
        <translation>未能确认：{seconds} 秒过去了，改过的脚本还没有运行过{line}。</translation>
    </message>
    <message>
        <source>✓ Checked: with this fix your script runs past {line}. Then {next} fails: {error}</source>
        <translation>✓ 已检验：改成这样后，你的脚本能越过{line}，接着{next}出错：{error}</translation>
    </message>
    <message>
        <source>✗ This fix does not work on your script: {next} still fails ({error}), so it is not offered.</source>
        <translation>✗ 这个修改在你的脚本上不管用：{next}仍然出错（{error}），所以不推荐它。</translation>
    </message>
    <message>
        <source>Show it anyway</source>
        <translation>仍然显示</translation>
    </message>
    <message>
        <source>Not checked: this code was typed in the console, so there is no script to run the fix in.</source>
        <translation>未检验：这段代码是在控制台里输入的，没有脚本可以用来运行这个修改。</translation>
    </message>
    <message>
        <source>Not checked: the kernel runs elsewhere, so the fix is not run here.</source>
        <translation>未检验：内核运行在别处，所以不在这里运行这个修改。</translation>
    </message>
    <message>
        <source>Not checked: the fix could not be put into the script.</source>
        <translation>未检验：没法把这个修改放进脚本里。</translation>
    </message>
    <message>
        <source>Not checked: a background Python process could not be started ({detail}).</source>
        <translation>未检验：无法启动后台的 Python 进程（{detail}）。</translation>
    </message>
    <message>
        <source>Not checked: the check ran out of time.</source>
        <translation>未检验：检验的时间用完了。</translation>
    </message>
    <message>
        <source>Your whole script ran again with this fix, in a separate background Python process: random numbers seeded as for Step Back, for {seconds} s at most. Your own kernel and variables were not touched.</source>
        <translation>你的整个脚本已带着这个修改，在另一个后台 Python 进程里重新运行了一遍：随机数的种子和“后退一步”时相同，最多运行 {seconds} 秒。你自己的内核和变量都没有被动过。</translation>
    </message>
    <message>
        <source>The check took {seconds} s.</source>
        <translation>检验用时 {seconds} 秒。</translation>
    </message>
    <message>
        <source>line {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <source>the failing line</source>
        <translation>出错的那一行</translation>
    </message>
</context>
<context>
    <name>FramesWidget</name>
    <message>
        <source>The frames are gone: {why}</source>
        <translation>这些栈帧已经不在了：{why}</translation>
    </message>
    <message>
        <source>All variables (the namespace)</source>
        <translation>全部变量（命名空间）</translation>
    </message>
    <message>
        <source>top level, line {line}</source>
        <translation>顶层代码，第 {line} 行</translation>
    </message>
    <message>
        <source>{function}(), line {line}</source>
        <translation>{function}()，第 {line} 行</translation>
    </message>
    <message>
        <source>⏸ Paused at {where}. The inspector shows that frame&apos;s variables.</source>
        <translation>⏸ 已暂停在 {where}。变量列表显示的是这一帧的变量。</translation>
    </message>
    <message>
        <source>The error happened in {where}. Pick a frame to see its variables:</source>
        <translation>错误发生在 {where}。选择一个栈帧，查看它的变量：</translation>
    </message>
    <message>
        <source>Continue (F8)</source>
        <translation>继续（F8）</translation>
    </message>
    <message>
        <source>Let the paused code go on to the next breakpoint() or the end</source>
        <translation>让暂停的代码继续运行，直到下一个 breakpoint() 或运行结束</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>End the paused code here (KeyboardInterrupt)</source>
        <translation>在这里结束暂停的代码（KeyboardInterrupt）</translation>
    </message>
    <message>
        <source>Whose variables the inspector, the image and the values show: the namespace, or one function call of the traceback</source>
        <translation>变量列表、图像和数值显示哪里的变量：整个命名空间，或者回溯中的某一次函数调用</translation>
    </message>
</context>
<context>
    <name>GoToLineBar</name>
    <message>
        <source>Go to line (1-{last}):</source>
        <translation>跳到第几行（1-{last}）：</translation>
    </message>
    <message>
        <source>Type a line number from 1 to {last}</source>
        <translation>请输入 1 到 {last} 之间的行号</translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message>
        <source>Zoom out (Ctrl+wheel)</source>
        <translation>缩小（Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl+wheel)</source>
        <translation>放大（Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Fit</source>
        <extracomment>Button: zoom the graph so all of it fits in the window.</extracomment>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole graph</source>
        <translation>显示整张计算图</translation>
    </message>
    <message>
        <source>leaf</source>
        <extracomment>Legend of the graph&apos;s colours: a leaf node (a tensor you created).</extracomment>
        <translation>叶子节点</translation>
    </message>
    <message>
        <source>parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>intermediate</source>
        <translation>中间结果</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>operation</source>
        <extracomment>Legend of the graph&apos;s colours: an operation node, such as MulBackward0.</extracomment>
        <translation>运算</translation>
    </message>
    <message>
        <source>Select a tensor to see the autograd graph that produced it.</source>
        <translation>选中一个张量，查看生成它的自动求导计算图。</translation>
    </message>
    <message>
        <source>Only torch tensors have an autograd graph.</source>
        <translation>只有 torch 张量才有自动求导计算图。</translation>
    </message>
    <message>
        <source>Reading the graph…</source>
        <translation>正在读取计算图…</translation>
    </message>
    <message>
        <source>Could not read the graph: {error}</source>
        <translation>无法读取计算图：{error}</translation>
    </message>
    <message numerus="yes">
        <source>Only the first %n node(s) are shown.</source>
        <extracomment>The graph is too large to draw; %n is how many of its nodes are drawn.</extracomment>
        <translation>
            <numerusform>只显示了前 %n 个节点。</numerusform>
        </translation>
    </message>
    <message>
        <source>backward() has already run on this graph, so the values it saved were freed. Calling backward() again raises an error: run the forward pass again (or pass retain_graph=True the first time).</source>
        <translation>这张计算图已经执行过 backward()，它保存的中间值已被释放。再次调用 backward() 会报错：请重新做一次前向计算（或在第一次调用时传入 retain_graph=True）。</translation>
    </message>
    <message>
        <source>{name} is a leaf tensor: you created it, no operation did, so no graph leads to it. backward() stores its gradient in {name}.grad.</source>
        <translation>{name} 是叶子节点：它是你直接创建的，不是由某个运算得到的，所以没有计算图通向它。backward() 会把它的梯度存进 {name}.grad。</translation>
    </message>
    <message>
        <source>{name} does not require grad, so autograd recorded no graph for it (no input had requires_grad=True, or it was made under torch.no_grad() or by detach()).</source>
        <translation>{name} 不需要梯度，所以自动求导没有为它记录计算图（没有任何输入设置了 requires_grad=True，或者它是在 torch.no_grad() 下或通过 detach() 得到的）。</translation>
    </message>
    <message>
        <source>{name} is not a torch tensor: only tensors record an autograd graph.</source>
        <translation>{name} 不是 torch 张量：只有张量才会记录自动求导计算图。</translation>
    </message>
    <message numerus="yes">
        <source>This input is used %n time(s) by the operation.</source>
        <translation>
            <numerusform>这个运算用了该输入 %n 次。</numerusform>
        </translation>
    </message>
    <message>
        <source>Local derivative of {op}&apos;s output with respect to {input}: {formula}. backward() multiplies the gradient arriving at the output by it.</source>
        <translation>{op} 的输出对 {input} 的局部导数：{formula}。backward() 把到达输出的梯度乘以它。</translation>
    </message>
    <message>
        <source>Shapes: {rule} (the gradient has the input&apos;s shape).</source>
        <translation>形状：{rule}（梯度与输入形状相同）。</translation>
    </message>
    <message>
        <source>In the last backward(), {value} flowed back along this edge.</source>
        <translation>上一次 backward() 中，沿这条边传回的梯度是 {value}。</translation>
    </message>
    <message>
        <source>Operation: {op}</source>
        <translation>运算：{op}</translation>
    </message>
    <message>
        <source>Its saved tensors were freed by backward().</source>
        <translation>它保存的张量已被 backward() 释放。</translation>
    </message>
    <message>
        <source>Gradient of its output in the last backward(): {value}</source>
        <translation>上一次 backward() 中它的输出的梯度：{value}</translation>
    </message>
    <message>
        <source>Selected tensor (the output)</source>
        <translation>选中的张量（输出）</translation>
    </message>
    <message>
        <source>nn.Parameter (a leaf the optimizer updates)</source>
        <translation>nn.Parameter（由优化器更新的叶子节点）</translation>
    </message>
    <message>
        <source>Leaf tensor: gradients accumulate in its .grad</source>
        <translation>叶子节点：梯度累积在它的 .grad 中</translation>
    </message>
    <message>
        <source>Intermediate result held in a variable</source>
        <translation>保存在变量里的中间结果</translation>
    </message>
    <message>
        <source>shape: {shape}</source>
        <translation>形状：{shape}</translation>
    </message>
    <message>
        <source>dtype: {dtype}</source>
        <translation>数据类型：{dtype}</translation>
    </message>
    <message>
        <source>requires_grad: {value}</source>
        <translation>requires_grad：{value}</translation>
    </message>
    <message>
        <source>Chain rule: the local derivatives along the path to the output, multiplied.</source>
        <translation>链式法则：把通往输出的路径上的局部导数相乘。</translation>
    </message>
    <message>
        <source>grad: {preview}</source>
        <translation>梯度：{preview}</translation>
    </message>
    <message>
        <source>grad: None (backward() has not reached it yet)</source>
        <extracomment>Tooltip of a leaf node whose .grad is still None.</extracomment>
        <translation>梯度：None（backward() 还没有传到这里）</translation>
    </message>
</context>
<context>
    <name>GridText</name>
    <message numerus="yes">
        <source>{shown} of %n image(s) in a {rows} × {cols} grid</source>
        <translation>
            <numerusform>共 %n 张图像，显示其中 {shown} 张，排成 {rows} × {cols} 的网格</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImageStatusMixin</name>
    <message>
        <source>layout {layout}, guessed</source>
        <translation>布局 {layout}（推测）</translation>
    </message>
    <message>
        <source>layout {layout}</source>
        <translation>布局 {layout}</translation>
    </message>
    <message>
        <source>true size {height} × {width}, zoom {zoom}×</source>
        <translation>实际大小 {height} × {width}，缩放 {zoom}×</translation>
    </message>
    <message>
        <source>channel {index} alone</source>
        <translation>只显示通道 {index}</translation>
    </message>
    <message>
        <source>min-max normalised from {lo} to {hi}</source>
        <translation>按最小值–最大值归一化（{lo} 到 {hi}）</translation>
    </message>
    <message>
        <source>(range of the drawn pixels)</source>
        <translation>（范围取自画出的像素）</translation>
    </message>
    <message>
        <source>integers shown as 0–255 (clipped)</source>
        <translation>整数按 0–255 显示（超出范围的部分截断）</translation>
    </message>
    <message>
        <source>as is</source>
        <extracomment>How the pixels were scaled: not at all, the values are shown as they are.</extracomment>
        <translation>原样显示</translation>
    </message>
</context>
<context>
    <name>ImageView</name>
    <message>
        <source>Layout:</source>
        <translation>布局：</translation>
    </message>
    <message>
        <source>Auto</source>
        <extracomment>Layout choice: let the app guess which axes are channels, height and width.</extracomment>
        <translation>自动</translation>
    </message>
    <message>
        <source>How the axes are read: C channels, H height, W width, N batch</source>
        <translation>各维度的含义：C 通道，H 高度，W 宽度，N 批次</translation>
    </message>
    <message>
        <source>Channel:</source>
        <translation>通道：</translation>
    </message>
    <message>
        <source>Colormap:</source>
        <translation>颜色映射：</translation>
    </message>
    <message>
        <source>grayscale</source>
        <extracomment>Colour map choice for a one-channel image.</extracomment>
        <translation>灰度</translation>
    </message>
    <message>
        <source>Colours for a one-channel image</source>
        <translation>单通道图像使用的颜色映射</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy this line to the clipboard</source>
        <translation>把这行代码复制到剪贴板</translation>
    </message>
    <message>
        <source>The line that draws this picture yourself with matplotlib</source>
        <translation>自己用 matplotlib 画出这张图的那行代码</translation>
    </message>
    <message>
        <source>Select a tensor or an array to draw it as an image.</source>
        <translation>选中一个张量或数组，就能把它画成图像。</translation>
    </message>
    <message>
        <source>{name} ({type}) is not a tensor or an array, so there is no image to draw.</source>
        <translation>{name}（{type}）既不是张量也不是数组，没有图像可画。</translation>
    </message>
    <message numerus="yes">
        <source>{name} has %n dimension(s); an image needs 2 (H, W), 3 (C, H, W or H, W, C) or 4 (a batch).</source>
        <translation>
            <numerusform>{name} 有 %n 个维度；图像需要 2 维（H, W）、3 维（C, H, W 或 H, W, C）或 4 维（一批图像）。</numerusform>
        </translation>
    </message>
    <message>
        <source>{name} cannot be drawn as an image: {reason}</source>
        <translation>{name} 无法画成图像：{reason}</translation>
    </message>
    <message>
        <source>All channels</source>
        <translation>全部通道</translation>
    </message>
    <message>
        <source>red</source>
        <extracomment>Names of the channels of an RGB(A) image, used in &quot;Channel {index} ({color})&quot;.</extracomment>
        <translation>红</translation>
    </message>
    <message>
        <source>green</source>
        <translation>绿</translation>
    </message>
    <message>
        <source>blue</source>
        <translation>蓝</translation>
    </message>
    <message>
        <source>alpha</source>
        <translation>透明度</translation>
    </message>
    <message>
        <source>Channel {index} ({color})</source>
        <translation>通道 {index}（{color}）</translation>
    </message>
    <message>
        <source>Channel {index}</source>
        <translation>通道 {index}</translation>
    </message>
</context>
<context>
    <name>InspectorColumns</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>The variable&apos;s name in your code. Children of lists, dicts and modules are indented.</source>
        <translation>变量在代码里的名字。列表、字典和模块中的子项会缩进显示。</translation>
    </message>
    <message>
        <source>Change</source>
        <extracomment>Column headers are short; the tooltip after each one explains the column.</extracomment>
        <translation>变化</translation>
    </message>
    <message>
        <source>What the last run did to this variable: new, changed, or changed through another name that shares its memory.</source>
        <translation>上一次运行对这个变量做了什么：新建、修改，或者通过共享同一块内存的另一个名字被修改。</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Variables with the same colour share one block of memory: writing to one can change the others.</source>
        <translation>颜色相同的变量共享同一块内存：修改其中一个，其他的也可能跟着改变。</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>The Python type: Tensor, Parameter (a tensor a model learns), ndarray (NumPy), or another object.</source>
        <translation>Python 类型：Tensor（张量）、Parameter（模型要学习的张量）、ndarray（NumPy 数组）或其他对象。</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>How many elements along each dimension. A scalar has shape []; an RGB image tensor is usually [3, H, W].</source>
        <translation>每个维度上有多少个元素。标量的形状是 []；RGB 图像张量的形状通常是 [3, H, W]。</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>The element type: float32 is the default for tensors, int64 for integer data; most layers refuse integers.</source>
        <translation>元素的数据类型：张量默认是 float32，整数数据默认是 int64；大多数网络层不接受整数。</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Where the data lives (cpu, cuda:0). Tensors in one operation must be on the same device.</source>
        <translation>数据存放在哪个设备上（cpu、cuda:0）。参与同一个运算的张量必须在同一个设备上。</translation>
    </message>
    <message>
        <source>Strides</source>
        <translation>步长</translation>
    </message>
    <message>
        <source>How far to jump in memory to move one step along each dimension: torch counts elements (t.stride()), NumPy counts bytes (a.strides, shown with B). A view changes strides, not data.</source>
        <translation>沿每个维度前进一步时，在内存中要跳过多远：torch 按元素计（t.stride()），NumPy 按字节计（a.strides，带 B 显示）。视图改变的是步长，而不是数据。</translation>
    </message>
    <message>
        <source>A leaf has no grad_fn: it was created directly, or computed while no gradient was tracked. backward() fills .grad only for leaves that require grad.</source>
        <translation>叶子节点没有 grad_fn：它是直接创建的，或是在不记录梯度时计算出来的。backward() 只会填充 requires_grad=True 的叶子节点的 .grad。</translation>
    </message>
    <message>
        <source>The gradient backward() stored for this leaf (its values when small); empty until backward() runs. A second backward() adds to it.</source>
        <translation>backward() 为这个叶子节点存下的梯度（数据较少时直接显示数值）；运行 backward() 之前为空。再次调用 backward() 会把新梯度累加上去。</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>存储偏移</translation>
    </message>
    <message>
        <source>Where this tensor&apos;s first element sits in its storage, counted in elements. Slices that skip rows have an offset.</source>
        <translation>张量的第一个元素在其存储中的位置，以元素为单位计数。跳过前几行的切片会有存储偏移。</translation>
    </message>
    <message>
        <source>data_ptr</source>
        <translation>data_ptr</translation>
    </message>
    <message>
        <source>The memory address of the first element: storage address + offset × element size.</source>
        <translation>第一个元素的内存地址：存储地址 + 存储偏移 × 元素大小。</translation>
    </message>
    <message>
        <source>Contiguous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>Whether the elements lie in memory in row-major order with no gaps. view() needs this; reshape() copies when it is not.</source>
        <translation>元素是否按行优先的顺序在内存中紧密排列、中间没有空隙。view() 要求张量连续；不连续时 reshape() 会复制数据。</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>元素个数</translation>
    </message>
    <message>
        <source>The number of elements: the product of the shape.</source>
        <translation>元素个数：形状中各维长度的乘积。</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节数</translation>
    </message>
    <message>
        <source>Memory the elements take: number of elements × element size.</source>
        <translation>这些元素占用的内存：元素个数 × 元素大小。</translation>
    </message>
    <message>
        <source>requires_grad</source>
        <translation>requires_grad</translation>
    </message>
    <message>
        <source>Whether autograd records operations on this tensor so backward() can compute its gradient.</source>
        <translation>自动求导是否记录对这个张量的运算，以便 backward() 计算它的梯度。</translation>
    </message>
    <message>
        <source>Leaf</source>
        <translation>叶子节点</translation>
    </message>
    <message>
        <source>grad_fn</source>
        <translation>grad_fn</translation>
    </message>
    <message>
        <source>The operation that produced this tensor (e.g. MulBackward0); backward() walks these back to the leaves.</source>
        <translation>产生这个张量的运算（例如 MulBackward0）；backward() 沿着这些运算一路回溯到叶子节点。</translation>
    </message>
    <message>
        <source>retains_grad</source>
        <translation>retains_grad</translation>
    </message>
    <message>
        <source>Whether this non-leaf tensor keeps its .grad after backward() (set with retain_grad()).</source>
        <translation>这个非叶子节点在 backward() 之后是否保留 .grad（用 retain_grad() 设置）。</translation>
    </message>
    <message>
        <source>Grad</source>
        <translation>梯度</translation>
    </message>
</context>
<context>
    <name>InspectorModel</name>
    <message>
        <source>new</source>
        <extracomment>Change column: the last run created this variable.</extracomment>
        <translation>新建</translation>
    </message>
    <message>
        <source>changed through {name}</source>
        <extracomment>Change column: the variable changed because {name}, which shares its memory, was written.</extracomment>
        <translation>经由 {name} 修改</translation>
    </message>
    <message>
        <source>changed</source>
        <extracomment>Change column: the last run changed this variable.</extracomment>
        <translation>已修改</translation>
    </message>
    <message>
        <source>nn.Parameter: a tensor the model learns; optimizers update it after backward().</source>
        <translation>nn.Parameter：模型要学习的张量；调用 backward() 之后，优化器会更新它。</translation>
    </message>
    <message>
        <source>The last run never wrote {name} by name: it wrote {alias}, which shares its memory.</source>
        <translation>上一次运行并没有直接写入 {name}，而是写入了与它共享内存的 {alias}。</translation>
    </message>
</context>
<context>
    <name>InspectorView</name>
    <message>
        <source>Filter variables by name</source>
        <translation>按名称筛选变量</translation>
    </message>
    <message>
        <source>Show only variables whose name contains this text</source>
        <translation>只显示名称中包含这段文字的变量</translation>
    </message>
    <message>
        <source>(running…)</source>
        <translation>（运行中…）</translation>
    </message>
    <message>
        <source>Made by the code that is running: its shape, values and memory come when the run ends.</source>
        <translation>由正在运行的代码创建：它的形状、数值和内存信息会在运行结束后显示。</translation>
    </message>
    <message>
        <source>Checking which elements {name} shares…</source>
        <translation>正在检查 {name} 与哪些变量共享元素…</translation>
    </message>
    <message>
        <source>Could not check the shared memory: {why}</source>
        <translation>无法检查共享内存：{why}</translation>
    </message>
    <message>
        <source>Stop Watching {name}</source>
        <translation>停止监视 {name}</translation>
    </message>
    <message>
        <source>Watch {name} While Running</source>
        <translation>运行时监视 {name}</translation>
    </message>
    <message>
        <source>Draw this value in the Watch tab while the code runs, without changing the code</source>
        <translation>代码运行时在“监视”页画出这个值，不用改代码</translation>
    </message>
</context>
<context>
    <name>KernelExtras</name>
    <message>
        <source>&amp;Continue</source>
        <translation>继续(&amp;C)</translation>
    </message>
    <message>
        <source>Let the code paused in breakpoint() go on (F8)</source>
        <translation>让停在 breakpoint() 处的代码继续运行（F8）</translation>
    </message>
    <message>
        <source>This kernel was started by another program (attached with --existing): Tensor Explorer does not restart it</source>
        <translation>这个内核是由其他程序启动的（通过 --existing 连接）：Tensor Explorer 不会重启它</translation>
    </message>
    <message>
        <source>Attached to {kernel}</source>
        <translation>已连接到 {kernel}</translation>
    </message>
    <message>
        <source>A kernel started by another program: Stop interrupts it, quitting leaves it running</source>
        <translation>由其他程序启动的内核：“停止”会中断它，退出本程序后它继续运行</translation>
    </message>
    <message>
        <source>The code asks for input</source>
        <translation>代码请求输入</translation>
    </message>
    <message>
        <source>input():</source>
        <translation>input()：</translation>
    </message>
    <message>
        <source>The attached kernel stopped answering: it ended, or the connection (or SSH tunnel) was lost. Start Tensor Explorer with --existing again once it runs.</source>
        <translation>连接的内核不再响应：它可能已经结束，或者连接（或 SSH 隧道）断开了。等它重新运行后，再用 --existing 启动 Tensor Explorer。</translation>
    </message>
</context>
<context>
    <name>MainActions</name>
    <message>
        <source>&amp;New Script</source>
        <translation>新建脚本(&amp;N)</translation>
    </message>
    <message>
        <source>Start an empty script</source>
        <translation>新建一个空白脚本</translation>
    </message>
    <message>
        <source>&amp;Open Script…</source>
        <translation>打开脚本(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a Python script in the editor</source>
        <translation>在编辑器中打开一个 Python 脚本</translation>
    </message>
    <message>
        <source>Open &amp;Data…</source>
        <translation>打开数据(&amp;D)…</translation>
    </message>
    <message>
        <source>Load .npy, .npz, .pt, .pth, .safetensors or image files as variables</source>
        <translation>把 .npy、.npz、.pt、.pth、.safetensors 或图片文件加载为变量</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the script</source>
        <translation>保存脚本</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the script under a new name</source>
        <translation>用新的文件名保存脚本</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Run &amp;File</source>
        <translation>运行文件(&amp;F)</translation>
    </message>
    <message>
        <source>Run the whole script (F5)</source>
        <translation>运行整个脚本（F5）</translation>
    </message>
    <message>
        <source>Run &amp;Cell</source>
        <translation>运行单元格(&amp;C)</translation>
    </message>
    <message>
        <source>Run the cell under the cursor; cells start with # %% (Ctrl+Enter)</source>
        <translation>运行光标所在的单元格；单元格以 # %% 开头（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Run Cell and &amp;Advance</source>
        <translation>运行单元格并跳到下一个(&amp;A)</translation>
    </message>
    <message>
        <source>Run the current cell and move to the next one: step through a lesson (Shift+Enter)</source>
        <translation>运行当前单元格并跳到下一个：一步一步学完一节课（Shift+Enter）</translation>
    </message>
    <message>
        <source>Run &amp;Selection or Line</source>
        <translation>运行选中内容或当前行(&amp;S)</translation>
    </message>
    <message>
        <source>Run the selected lines, or the cursor&apos;s line (F9)</source>
        <translation>运行选中的几行，或光标所在的那一行（F9）</translation>
    </message>
    <message>
        <source>Run the next statement and show what it changed, before and after (F10)</source>
        <translation>运行下一条语句，并对照显示它改变了什么（F10）</translation>
    </message>
    <message>
        <source>Ste&amp;p</source>
        <translation>单步执行(&amp;P)</translation>
    </message>
    <message>
        <source>Step &amp;Back</source>
        <translation>后退一步(&amp;B)</translation>
    </message>
    <message>
        <source>Go back one statement: a fresh kernel replays the statements before it (Shift+F10)</source>
        <translation>后退一条语句：在新内核中重放它之前的语句（Shift+F10）</translation>
    </message>
    <message>
        <source>Run to C&amp;ursor</source>
        <translation>运行到光标处(&amp;U)</translation>
    </message>
    <message>
        <source>Run the statements up to the cursor&apos;s line; it runs next (Ctrl+F10)</source>
        <translation>运行到光标所在行之前的语句；光标所在的语句是下一条（Ctrl+F10）</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Keep one more kernel started in the background, so Restart and Step Back are instant (it costs the memory of one idle Python with torch)</source>
        <translation>在后台多启动一个内核，让“重启内核”和“后退一步”立刻完成（代价是一个已导入 torch 的空闲 Python 进程所占的内存）</translation>
    </message>
    <message>
        <source>For a classroom projector: the whole screen, big fonts, one pane at a time (F11)</source>
        <translation>适合教室投影：全屏、大号字体、一次只放大一个面板（F11）</translation>
    </message>
    <message>
        <source>Show the &amp;Code</source>
        <translation>显示代码(&amp;C)</translation>
    </message>
    <message>
        <source>Presentation mode: show the editor and the console big</source>
        <translation>演示模式：放大显示编辑器和控制台</translation>
    </message>
    <message>
        <source>Show the &amp;Variables</source>
        <translation>显示变量(&amp;V)</translation>
    </message>
    <message>
        <source>Presentation mode: show the list of variables big</source>
        <translation>演示模式：放大显示变量列表</translation>
    </message>
    <message>
        <source>Show the &amp;Details</source>
        <translation>显示详情(&amp;D)</translation>
    </message>
    <message>
        <source>Presentation mode: show the Image, Values, Stats, Memory and Graph tabs big</source>
        <translation>演示模式：放大显示图像、数值、统计、内存和计算图标签页</translation>
    </message>
    <message>
        <source>Show the Con&amp;sole</source>
        <translation>显示控制台(&amp;S)</translation>
    </message>
    <message>
        <source>Presentation mode: the console under the code big, or small again (Ctrl+4)</source>
        <translation>演示模式：把代码下方的控制台放大，再按一次又缩小（Ctrl+4）</translation>
    </message>
    <message>
        <source>&amp;Next Pane</source>
        <translation>下一个面板(&amp;N)</translation>
    </message>
    <message>
        <source>Move to the next pane: code, variables, details (F6)</source>
        <translation>切换到下一个面板：代码、变量、详情（F6）</translation>
    </message>
    <message>
        <source>&amp;Watch Gradients</source>
        <translation>观察梯度(&amp;W)</translation>
    </message>
    <message>
        <source>After backward(), show the gradient of every node of the graph, also for your own runs (always on in lessons and step-through)</source>
        <translation>backward() 之后，在计算图的每个节点上显示梯度，你自己运行的代码也一样（课程和单步执行中总是开启）</translation>
    </message>
    <message>
        <source>Lessons in &amp;Both Languages</source>
        <translation>课程显示双语(&amp;B)</translation>
    </message>
    <message>
        <source>Show the lessons&apos; comments in English and Chinese, one under the other</source>
        <translation>课程注释同时显示英文和中文，上下对照</translation>
    </message>
    <message>
        <source>Interrupt the running code (KeyboardInterrupt)</source>
        <translation>中断正在运行的代码（KeyboardInterrupt）</translation>
    </message>
    <message>
        <source>&amp;Restart Kernel</source>
        <translation>重启内核(&amp;R)</translation>
    </message>
    <message>
        <source>Start a fresh Python process; variables are lost, your script is kept</source>
        <translation>启动一个全新的 Python 进程；变量会丢失，脚本会保留</translation>
    </message>
    <message>
        <source>&amp;Keep a Spare Kernel</source>
        <translation>保留一个备用内核(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Presentation Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>放大文字</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>缩小文字</translation>
    </message>
    <message>
        <source>&amp;About Tensor Explorer</source>
        <translation>关于 Tensor Explorer(&amp;A)</translation>
    </message>
    <message>
        <source>Version and credits</source>
        <translation>版本与致谢</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>All keyboard shortcuts</source>
        <translation>所有键盘快捷键</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <extracomment>Menu titles; the letter after &amp; is the keyboard access key.</extracomment>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>显示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Recent &amp;Files</source>
        <translation>最近打开的文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Close Tensor Explorer; unsaved text comes back at the next start</source>
        <translation>关闭 Tensor Explorer；未保存的内容下次启动时会自动恢复</translation>
    </message>
    <message>
        <source>Check &amp;Fixes on My Script</source>
        <translation>用我的脚本检验修改(&amp;F)</translation>
    </message>
    <message>
        <source>When code fails, run your whole script again with the error card&apos;s fix, in a separate background process, and say whether it gets past the error (your own kernel is not touched)</source>
        <translation>代码出错时，把错误卡片给出的修改放进你的整个脚本，在另一个后台进程里重新运行一遍，告诉你它能否越过这个错误（你自己的内核不受影响）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Starting the Python kernel…</source>
        <translation>正在启动 Python 内核…</translation>
    </message>
    <message>
        <source>Type PyTorch code here and press F5 to run it, e.g.

import torch
t = torch.arange(10).reshape(2, 5)
cols = t[:, 1:3]

Or open a ready lesson from the Lessons menu and step through it with Shift+Enter.</source>
        <translation>在这里输入 PyTorch 代码，按 F5 运行，例如：

import torch
t = torch.arange(10).reshape(2, 5)
cols = t[:, 1:3]

也可以从“课程”菜单打开现成的课程，用 Shift+Enter 逐个单元格运行。</translation>
    </message>
    <message>
        <source>Kernel starting…</source>
        <translation>内核启动中…</translation>
    </message>
    <message>
        <source>Kernel idle</source>
        <translation>内核空闲</translation>
    </message>
    <message>
        <source>Kernel busy</source>
        <translation>内核忙碌</translation>
    </message>
    <message>
        <source>Kernel restarting…</source>
        <translation>内核重启中…</translation>
    </message>
    <message>
        <source>Kernel stopped</source>
        <translation>内核已停止</translation>
    </message>
    <message>
        <source>The Python process that runs your code. Stop interrupts it; Restart starts a fresh one.</source>
        <translation>运行你代码的 Python 进程。“停止”会中断它，“重启”会换一个全新的进程。</translation>
    </message>
    <message>
        <source>The kernel died and was restarted: your variables are gone, your script is safe in the editor. Run it again.</source>
        <translation>内核崩溃后已重新启动：之前的变量都没有了，你的脚本仍完好地保存在编辑器里。请重新运行。</translation>
    </message>
    <message>
        <source>⚠ no_grad: gradients are off</source>
        <extracomment>Status bar warning: the kernel runs under torch.no_grad(), so no graph is recorded.</extracomment>
        <translation>⚠ no_grad：梯度计算已关闭</translation>
    </message>
    <message>
        <source>torch.is_grad_enabled() is False in the kernel: operations are not recorded for backward()</source>
        <translation>内核中 torch.is_grad_enabled() 为 False：运算不会被记录下来，backward() 无法求导</translation>
    </message>
    <message>
        <source>The kernel has tensor-explorer {kernel}, the app {app}: its answers may be wrong. Run `pip install tensor-explorer=={app}` in the kernel&apos;s environment and restart it.</source>
        <translation>内核里的 tensor-explorer 是 {kernel} 版，本程序是 {app} 版：内核的回答可能不对。请在内核所在的环境中运行 `pip install tensor-explorer=={app}`，然后重启内核。</translation>
    </message>
    <message>
        <source>The kernel cannot load the tensor-explorer extension ({error}). Run `pip install tensor-explorer` in the kernel&apos;s environment and restart it.</source>
        <translation>内核无法加载 tensor-explorer 扩展（{error}）。请在内核所在的环境中运行 `pip install tensor-explorer`，然后重启内核。</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>没有回应</translation>
    </message>
    <message>
        <source>torch {version}</source>
        <translation>torch {version}</translation>
    </message>
    <message>
        <source>torch {version} (not imported yet)</source>
        <translation>torch {version}，尚未导入</translation>
    </message>
    <message>
        <source>torch is not installed</source>
        <translation>未安装 torch</translation>
    </message>
    <message>
        <source>The kernel died (the code crashed or called exit); it is restarting. Your script is safe in the editor.</source>
        <translation>内核已退出（代码崩溃或调用了 exit），正在重启。你的脚本仍完好地保留在编辑器中。</translation>
    </message>
    <message>
        <source>A fresh kernel is ready; run your code again</source>
        <translation>新的内核已就绪，请重新运行代码</translation>
    </message>
    <message>
        <source>{url}: only files on this computer can be opened, not web addresses.</source>
        <translation>{url}：只能打开这台电脑上的文件，不能打开网址。</translation>
    </message>
    <message>
        <source>About Tensor Explorer</source>
        <translation>关于 Tensor Explorer</translation>
    </message>
    <message>
        <source>Tensor Explorer {version}
See what every tensor is: shape, dtype, device, strides, shared memory, autograd and images.</source>
        <translation>Tensor Explorer {version}
看清每个张量：形状、数据类型、设备、步长、共享内存、自动求导和图像。</translation>
    </message>
</context>
<context>
    <name>MemoryMapView</name>
    <message>
        <source>Select a tensor or array to see its memory.</source>
        <translation>选中一个张量或数组，查看它的内存。</translation>
    </message>
    <message>
        <source>Only tensors and arrays have a memory map.</source>
        <translation>只有张量和数组才有内存图。</translation>
    </message>
    <message>
        <source>Loading memory map…</source>
        <translation>正在读取内存图…</translation>
    </message>
    <message>
        <source>Could not draw the memory map: {error}</source>
        <translation>无法绘制内存图：{error}</translation>
    </message>
    <message>
        <source>No storage to draw: {note}</source>
        <translation>没有可绘制的存储：{note}</translation>
    </message>
    <message>
        <source>memory group {group}</source>
        <translation>内存组 {group}</translation>
    </message>
    <message>
        <source>not shared with other variables</source>
        <translation>未与其他变量共享内存</translation>
    </message>
    <message numerus="yes">
        <source>allocation: {nbytes} byte(s)</source>
        <extracomment>Size of the memory block the variable lives in; the count chooses the plural form.</extracomment>
        <translation>
            <numerusform>所在内存块：{nbytes} 字节</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>1 cell = {n} byte(s)</source>
        <extracomment>Legend of the memory map: how many bytes one drawn cell (box) stands for.</extracomment>
        <translation>
            <numerusform>每个单元格 = {n} 字节</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>1 cell = 1 element (%n byte(s))</source>
        <translation>
            <numerusform>每个单元格 = 1 个元素（%n 字节）</numerusform>
        </translation>
    </message>
    <message>
        <source>1 cell = 1 byte</source>
        <translation>每个单元格 = 1 字节</translation>
    </message>
    <message>
        <source>memory</source>
        <extracomment>Label of the row of storage cells at the top of the memory map.</extracomment>
        <translation>内存</translation>
    </message>
    <message>
        <source>cell {cell}: {value}</source>
        <translation>第 {cell} 个单元格：{value}</translation>
    </message>
    <message>
        <source>{name} does not reach this cell</source>
        <translation>{name} 不会访问这个单元格</translation>
    </message>
    <message>
        <source>{name} reaches this cell</source>
        <translation>{name} 会访问这个单元格</translation>
    </message>
    <message numerus="yes">
        <source>reached %n time(s)</source>
        <translation>
            <numerusform>被访问了 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>{name}{index}: offset + Σ index × stride = {formula}</source>
        <extracomment>Tooltip: how the element {name}{index} (e.g. t[1, 2]) finds its storage position; {formula} is the arithmetic.</extracomment>
        <translation>{name}{index}：存储偏移 + Σ 索引 × 步长 = {formula}</translation>
    </message>
</context>
<context>
    <name>PaneStrip</name>
    <message>
        <source>Code</source>
        <extracomment>Presentation mode: the button that shows the code editor (and the console) big.</extracomment>
        <translation>代码</translation>
    </message>
    <message>
        <source>Variables</source>
        <extracomment>Presentation mode: the button that shows the list of variables big.</extracomment>
        <translation>变量</translation>
    </message>
    <message>
        <source>Details</source>
        <extracomment>Presentation mode: the button that shows the Image/Values/Stats/Memory/Graph tabs big.</extracomment>
        <translation>详情</translation>
    </message>
    <message>
        <source>Show this pane big; the others wait in this strip ({key}, F6 for the next one)</source>
        <translation>放大显示这个面板，其他面板收在这一栏里（{key}；按 F6 切换到下一个）</translation>
    </message>
</context>
<context>
    <name>RecentFilesMenu</name>
    <message>
        <source>(not found)</source>
        <translation>（找不到了）</translation>
    </message>
    <message>
        <source>&amp;Clear Recent Files</source>
        <translation>清空最近文件列表(&amp;C)</translation>
    </message>
</context>
<context>
    <name>RunControl</name>
    <message>
        <source>Interrupted: the running code was stopped</source>
        <translation>已中断：正在运行的代码已停止</translation>
    </message>
    <message>
        <source>Stopped (KeyboardInterrupt)</source>
        <translation>已停止：KeyboardInterrupt</translation>
    </message>
</context>
<context>
    <name>ScriptFiles</name>
    <message>
        <source>Open Script</source>
        <translation>打开脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py);;All files (*)</source>
        <translation>Python 脚本 (*.py);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{path} could not be opened: {why}</source>
        <translation>无法打开 {path}：{why}</translation>
    </message>
    <message>
        <source>Could not save {path}: {why}</source>
        <translation>无法保存 {path}：{why}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>Save Script</source>
        <translation>保存脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>有未保存的修改</translation>
    </message>
    <message>
        <source>{name} has changes that are not saved. Save them first?</source>
        <translation>{name} 有尚未保存的修改。要先保存吗？</translation>
    </message>
    <message>
        <source>Open this lesson; step through it with Shift+Enter</source>
        <translation>打开这节课；用 Shift+Enter 逐个单元格运行</translation>
    </message>
    <message>
        <source>There is no lesson called {name}.</source>
        <translation>没有名为 {name} 的课程。</translation>
    </message>
    <message>
        <source>{path} no longer exists; it was taken off Recent Files.</source>
        <translation>{path} 已经不存在，已从最近文件列表中移除。</translation>
    </message>
    <message>
        <source>Reloaded {name}: it changed on disk</source>
        <translation>{name} 在磁盘上被改动过，已重新载入</translation>
    </message>
    <message>
        <source>{name} changed on disk, and the editor has changes that are not saved. Reload the file (your changes are lost), or keep yours (Save then overwrites the file)?</source>
        <translation>{name} 在磁盘上被改动了，而编辑器里还有没保存的修改。是重新载入文件（你的修改会丢失），还是保留你的版本（之后保存会覆盖磁盘上的文件）？</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新载入</translation>
    </message>
    <message>
        <source>Keep Mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <source>{name} was deleted or moved away on disk. Your text is still here: Save writes the file again.</source>
        <translation>磁盘上的 {name} 已被删除或移走。你的代码还在编辑器里：保存一下就会重新写出这个文件。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>StatsView</name>
    <message>
        <source>Elements</source>
        <translation>元素个数</translation>
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
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>Std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Zeros</source>
        <translation>零值个数</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Compute the statistics in the kernel (large tensors take a moment)</source>
        <translation>在内核中计算统计量（大张量需要稍等片刻）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>{field}:</source>
        <extracomment>A form label: the name of a statistic followed by a colon.</extracomment>
        <translation>{field}：</translation>
    </message>
    <message>
        <source>Standard deviation, computed like the library does (torch: t.std() divides by n-1; numpy: a.std() by n)</source>
        <translation>标准差，算法与所用的库一致（torch 的 t.std() 除以 n-1；numpy 的 a.std() 除以 n）</translation>
    </message>
    <message>
        <source>The statistics could not be started.</source>
        <translation>无法开始计算统计量。</translation>
    </message>
    <message>
        <source>The statistics job was lost (the kernel restarted?).</source>
        <translation>统计任务丢失了（可能是内核重启了）。</translation>
    </message>
    <message>
        <source>Press Compute to read every element.</source>
        <translation>点击“计算”读取全部元素。</translation>
    </message>
    <message>
        <source>Select a tensor or array to see its statistics.</source>
        <translation>选中一个张量或数组，查看它的统计量。</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>The statistics could not be computed.</source>
        <translation>无法计算统计量。</translation>
    </message>
    <message>
        <source>min, max, mean and std leave out NaN and Inf</source>
        <translation>最小值、最大值、均值和标准差不计入 NaN 和 Inf</translation>
    </message>
    <message>
        <source>complex values: the statistics are of the magnitude |z|</source>
        <translation>复数：统计的是模 |z|</translation>
    </message>
    <message>
        <source>sparse tensor: the stored values plus the implicit zeros</source>
        <translation>稀疏张量：统计的是存储的值加上隐含的零</translation>
    </message>
    <message>
        <source>quantized tensor: statistics of the dequantized values</source>
        <translation>量化张量：统计的是反量化后的值</translation>
    </message>
    <message>
        <source>the histogram counts a sample of about 1 in {step} elements</source>
        <translation>直方图只统计抽样：大约每 {step} 个元素取 1 个</translation>
    </message>
    <message>
        <source>Note: {note}</source>
        <translation>说明：{note}</translation>
    </message>
    <message>
        <source>value</source>
        <extracomment>Axis label of the histogram: the values of the elements.</extracomment>
        <translation>数值</translation>
    </message>
    <message>
        <source>count</source>
        <extracomment>Axis label of the histogram: how many elements fall in each bar.</extracomment>
        <translation>元素个数</translation>
    </message>
    <message>
        <source>count (sample: 1 in {step} elements)</source>
        <translation>元素个数（抽样：每 {step} 个元素取 1 个）</translation>
    </message>
</context>
<context>
    <name>StepControl</name>
    <message>
        <source>Busy stepping back: F10 works again once the replay is done</source>
        <translation>正在后退一步：重放结束后才能再按 F10</translation>
    </message>
    <message>
        <source>Nothing to step back: no statement was stepped yet</source>
        <translation>无法后退：还没有单步执行过任何语句</translation>
    </message>
    <message>
        <source>The cursor&apos;s statement is the next one already</source>
        <translation>光标所在的语句已经是下一条了</translation>
    </message>
    <message>
        <source>Replaying in a fresh kernel…</source>
        <translation>正在新内核中重放…</translation>
    </message>
    <message>
        <source>The end of the script: every statement ran. Shift+F10 steps back; F5 runs it all again.</source>
        <translation>已到脚本末尾：每条语句都运行过了。Shift+F10 后退一步；F5 重新运行整个脚本。</translation>
    </message>
</context>
<context>
    <name>StepPanel</name>
    <message numerus="yes">
        <source>Stepping back: a fresh kernel replays the %n statement(s) before it (random, NumPy and torch seeded as the first time)…</source>
        <translation>
            <numerusform>后退一步：新内核重放它之前的 %n 条语句（random、NumPy 和 torch 按第一次的种子设置）…</numerusform>
        </translation>
    </message>
    <message>
        <source>Replaying {done} of {count}…</source>
        <translation>正在重放第 {done} 条，共 {count} 条…</translation>
    </message>
    <message>
        <source>Waiting for the kernel to start (importing torch takes a moment): the step runs as soon as it is ready.</source>
        <translation>正在等待内核启动（导入 torch 需要一点时间）：内核一就绪，这一步就会执行。</translation>
    </message>
    <message numerus="yes">
        <source>F10 pressed %n more time(s): those steps run next, one after another.</source>
        <translation>
            <numerusform>又按了 %n 次 F10：这几步会接着依次执行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Step-through (F10)</source>
        <translation>逐步执行（F10）</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>(deleted)</source>
        <translation>（已删除）</translation>
    </message>
    <message>
        <source>No variable changed.</source>
        <translation>没有变量发生变化。</translation>
    </message>
    <message>
        <source>Back at the start: a fresh kernel, nothing has run yet. Press F10 to run the first statement.</source>
        <translation>回到了开头：这是一个新内核，还没有运行任何代码。按 F10 运行第一条语句。</translation>
    </message>
    <message>
        <source>line {line}</source>
        <translation>第 {line} 行</translation>
    </message>
    <message>
        <source>lines {first}–{last}</source>
        <translation>第 {first}–{last} 行</translation>
    </message>
    <message>
        <source>Statement {index} of {total}, {lines}</source>
        <translation>第 {index} 条语句（共 {total} 条），{lines}</translation>
    </message>
    <message numerus="yes">
        <source>Ran to the cursor: %n statement(s), the last is {last}</source>
        <translation>
            <numerusform>运行到光标处：共 %n 条语句，最后一条是{last}</numerusform>
        </translation>
    </message>
    <message>
        <source>{what} — a replay: a fresh kernel ran the statements before it again</source>
        <translation>{what}——这是重放：新内核把它之前的语句重新运行了一遍</translation>
    </message>
    <message>
        <source>it raised {error} (see the card)</source>
        <translation>它抛出了 {error}（见错误卡片）</translation>
    </message>
    <message>
        <source>(new)</source>
        <translation>（新建）</translation>
    </message>
    <message>
        <source>(not recorded)</source>
        <translation>（未记录）</translation>
    </message>
    <message>
        <source>(values not readable)</source>
        <translation>（数值无法读取）</translation>
    </message>
    <message>
        <source>min {min}  max {max}  mean {mean}</source>
        <translation>最小值 {min}  最大值 {max}  均值 {mean}</translation>
    </message>
    <message>
        <source>{name} changed through {alias}: they share memory.</source>
        <translation>{name} 通过 {alias} 被修改：它们共享内存。</translation>
    </message>
    <message>
        <source>backward() filled {name}.grad.</source>
        <translation>backward() 填入了 {name}.grad。</translation>
    </message>
    <message>
        <source>{name}.grad is None again (optimizer.zero_grad() sets it to None).</source>
        <translation>{name}.grad 又变回了 None（optimizer.zero_grad() 会把它设为 None）。</translation>
    </message>
    <message>
        <source>{name}.grad was set to zeros: the next backward() starts from 0.</source>
        <translation>{name}.grad 被清零：下一次 backward() 从 0 开始累加。</translation>
    </message>
    <message>
        <source>backward() adds to {name}.grad: it was {old}, now {new}. Gradients add up until you zero them ({name}.grad.zero_() or optimizer.zero_grad()).</source>
        <translation>backward() 会累加到 {name}.grad 上：原来是 {old}，现在是 {new}。梯度会一直累加，直到你把它清零（{name}.grad.zero_() 或 optimizer.zero_grad()）。</translation>
    </message>
    <message>
        <source>Hide the step panel (F10 shows it again)</source>
        <translation>隐藏单步面板（按 F10 会再次显示）</translation>
    </message>
</context>
<context>
    <name>UnsavedText</name>
    <message>
        <source>Your unsaved text from last time is back: {where}</source>
        <translation>上次没保存的内容已经恢复：{where}</translation>
    </message>
    <message>
        <source>Tensor Explorer was closed with unsaved changes in {where} (kept at {time}). Restore them?</source>
        <translation>上次关闭 Tensor Explorer 时还有未保存的修改（{where}，保留于 {time}）。要恢复吗？</translation>
    </message>
    <message>
        <source>Tensor Explorer did not close normally. Restore the unsaved text of {where} (autosaved at {time})?</source>
        <translation>Tensor Explorer 上次没有正常关闭，留下了未保存的内容（{where}，自动保存于 {time}）。要恢复吗？</translation>
    </message>
    <message>
        <source>{question} ({count} texts to restore: this is the newest.)</source>
        <translation>{question}（共有 {count} 份内容可以恢复，这是最新的一份。）</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>an untitled script</source>
        <translation>未命名脚本</translation>
    </message>
    <message>
        <source>Autosave off</source>
        <translation>自动保存已关闭</translation>
    </message>
    <message>
        <source>Autosave is off: {why}. Unsaved text will not survive a crash; save it with Ctrl+S. Closing the window will ask about unsaved changes.</source>
        <translation>自动保存已关闭：{why}。程序一旦崩溃，没保存的内容就找不回来了，请用 Ctrl+S 随时保存。关闭窗口时会先询问如何处理未保存的修改。</translation>
    </message>
    <message>
        <source>{name} has changes that are not saved, and autosave is off. Save them before closing?</source>
        <translation>{name} 有尚未保存的修改，而自动保存已关闭。关闭前要先保存吗？</translation>
    </message>
</context>
<context>
    <name>ValuesTableModel</name>
    <message>
        <source>storage position: {position}</source>
        <translation>存储中的位置：{position}</translation>
    </message>
</context>
<context>
    <name>ValuesView</name>
    <message>
        <source>Rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <source>Columns:</source>
        <translation>列：</translation>
    </message>
    <message>
        <source>Heat map</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Colour each cell by its value (blue low, orange high)</source>
        <translation>按数值给每个单元格着色（数值小为蓝色，数值大为橙色）</translation>
    </message>
    <message>
        <source>The dimension listed down the rows</source>
        <translation>沿行方向（竖向）排列的维度</translation>
    </message>
    <message>
        <source>The dimension listed across the columns</source>
        <translation>沿列方向（横向）排列的维度</translation>
    </message>
    <message>
        <source>The values could not be read.</source>
        <translation>无法读取这些数值。</translation>
    </message>
    <message>
        <source>dim {dim} (size {size})</source>
        <translation>第 {dim} 维（长度 {size}）</translation>
    </message>
    <message>
        <source>index of dim {dim}:</source>
        <translation>第 {dim} 维的索引：</translation>
    </message>
    <message>
        <source>Which index of dim {dim} is shown (size {size})</source>
        <translation>显示第 {dim} 维的哪个索引（长度 {size}）</translation>
    </message>
    <message>
        <source>Select a tensor or array to see its values.</source>
        <translation>选中一个张量或数组，查看它的数值。</translation>
    </message>
    <message>
        <source>This variable is not a tensor or array, so it has no values table.</source>
        <translation>这个变量既不是张量也不是数组，没有数值表。</translation>
    </message>
    <message>
        <source>This variable has no elements (one of its dimensions has size 0).</source>
        <translation>这个变量没有元素（它有一个维度的长度为 0）。</translation>
    </message>
    <message>
        <source>Only the first {rows} rows and {cols} columns are listed.</source>
        <translation>只列出前 {rows} 行、前 {cols} 列。</translation>
    </message>
    <message>
        <source>Only the first {rows} rows are listed.</source>
        <translation>只列出前 {rows} 行。</translation>
    </message>
    <message>
        <source>Only the first {cols} columns are listed.</source>
        <translation>只列出前 {cols} 列。</translation>
    </message>
</context>
<context>
    <name>WatchPanel</name>
    <message>
        <source>A name to watch while the code runs: loss, model.fc.weight, history[-1], opt.param_groups[0][&apos;lr&apos;]</source>
        <translation>输入运行时要监视的名字：loss、model.fc.weight、history[-1]、opt.param_groups[0][&apos;lr&apos;]</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>监视</translation>
    </message>
    <message>
        <source>Add this name: the next run draws its value as it changes (right-click a variable in the inspector to pin it instead)</source>
        <translation>加入这个名字：下次运行时把它的变化画出来（也可以在变量列表里右键点变量来固定它）</translation>
    </message>
    <message>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Draw the selected tensor as the histogram of its values, updated while the code runs (one more pass over its data)</source>
        <translation>把选中的张量画成其数值的直方图，代码运行时随之更新（需要多遍历一次数据）</translation>
    </message>
    <message>
        <source>Compare with the previous run</source>
        <translation>与上一次运行对比</translation>
    </message>
    <message>
        <source>Draw the previous run&apos;s curves dashed behind this run&apos;s</source>
        <translation>把上一次运行的曲线用虚线画在这次的后面</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Stop taking samples (the curves stay); works while the code runs</source>
        <translation>暂停采样（曲线保留）；代码运行时也能用</translation>
    </message>
    <message>
        <source>Nothing is watched. Type a name above, or right-click a variable in the inspector and choose Watch While Running.</source>
        <translation>还没有监视任何值。在上面输入名字，或在变量列表里右键点变量，选“运行时监视”。</translation>
    </message>
    <message>
        <source>Paused: no samples are taken until you resume.</source>
        <translation>已暂停：点“继续”之前不再采样。</translation>
    </message>
    <message>
        <source>Run the code: these values will be drawn while it runs, about four times a second.</source>
        <translation>运行代码：运行过程中每秒大约画四次这些值。</translation>
    </message>
    <message>
        <source>{count} samples at the top level of the code, one every {every} s.</source>
        <translation>在代码最外层采样 {count} 次，每 {every} 秒一次。</translation>
    </message>
    <message>
        <source>{count} samples in {frame}(), one every {every} s.</source>
        <translation>在 {frame}() 中采样 {count} 次，每 {every} 秒一次。</translation>
    </message>
    <message>
        <source>Not read: {name} ({why}).</source>
        <translation>没有读取：{name}（{why}）。</translation>
    </message>
    <message>
        <source>histogram of {name}</source>
        <extracomment>A chart&apos;s title: the values of the watched tensor {name}, counted in bins.</extracomment>
        <translation>{name} 的直方图</translation>
    </message>
    <message>
        <source>gradient</source>
        <extracomment>Beside a chart&apos;s title, in the gradient curve&apos;s colour: that curve is the gradient&apos;s norm.</extracomment>
        <translation>梯度</translation>
    </message>
    <message>
        <source>NaN or Inf: the value blew up</source>
        <translation>出现 NaN 或 Inf：数值爆炸了</translation>
    </message>
    <message>
        <source>seconds since the run started</source>
        <translation>从运行开始算起的秒数</translation>
    </message>
</context>
<context>
    <name>WindowLayout</name>
    <message>
        <source>No Chinese font was found for the charts, so their Chinese labels show as boxes: install one (for example fonts-noto-cjk) and restart.</source>
        <translation>没有找到可用于图表的中文字体，图表中的中文标签会显示成方框：请安装一个中文字体（例如 fonts-noto-cjk）后重新启动。</translation>
    </message>
</context>
</TS>
