"""Simplified Chinese for the main window: menus, toolbar, status bar, inspector, banners and file dialogs.

Covers explorer/ui/main_actions.py, main_window.py, window_files.py,
inspector_columns.py, inspector_model.py, inspector_view.py, memory_relations.py,
banner_widget.py, detail_tabs_widget.py and data_loader.py. Menu texts put the
access key last in parentheses ("运行(&R)"), as Chinese desktop software does.
"View" is "显示" rather than the usual "视图" so it is never confused with a
tensor view.
"""

from __future__ import annotations

STRINGS: dict[str, str] = {
    # -- main_actions: menus --------------------------------------------------------------------
    "&File": "文件(&F)",
    "&Run": "运行(&R)",
    "&View": "显示(&V)",
    "&Lessons": "课程(&L)",
    "&Help": "帮助(&H)",
    "Recent &Files": "最近打开的文件(&F)",
    "&Language": "语言(&L)",
    # -- main_actions: actions and their tooltips -------------------------------------------------
    "&New Script": "新建脚本(&N)",
    "Start an empty script": "新建一个空白脚本",
    "&Open Script…": "打开脚本(&O)…",
    "Open a Python script in the editor": "在编辑器中打开一个 Python 脚本",
    "Open &Data…": "打开数据(&D)…",
    "Load .npy, .npz, .pt, .pth, .safetensors or image files as variables":
        "把 .npy、.npz、.pt、.pth、.safetensors 或图片文件加载为变量",
    "&Save": "保存(&S)",
    "Save the script": "保存脚本",
    "Save &As…": "另存为(&A)…",
    "Save the script under a new name": "用新的文件名保存脚本",
    "&Quit": "退出(&Q)",
    "Close Tensor Explorer": "关闭 Tensor Explorer",
    "Run &File": "运行整个文件(&F)",
    "Run the whole script (F5)": "运行整个脚本（F5）",
    "Run &Cell": "运行单元格(&C)",
    "Run the cell under the cursor; cells start with # %% (Ctrl+Enter)":
        "运行光标所在的单元格；单元格以 # %% 开头（Ctrl+Enter）",
    "Run Cell and &Advance": "运行单元格并前进(&A)",
    "Run the current cell and move to the next one: step through a lesson (Shift+Enter)":
        "运行当前单元格并跳到下一个：一步一步学完一节课（Shift+Enter）",
    "Run &Selection or Line": "运行选中内容或当前行(&S)",
    "Run the selected lines, or the cursor's line (F9)": "运行选中的几行，或光标所在的那一行（F9）",
    "S&top": "停止(&T)",
    "Interrupt the running code (KeyboardInterrupt)": "中断正在运行的代码（KeyboardInterrupt）",
    "&Restart Kernel": "重启内核(&R)",
    "Start a fresh Python process; variables are lost, your script is kept":
        "启动一个全新的 Python 进程；变量会丢失，脚本会保留",
    "&Presentation Mode": "演示模式(&P)",
    "Big fonts for a classroom projector (F11)": "为教室投影仪使用大号字体（F11）",
    "Zoom &In": "放大(&I)",
    "Larger text": "放大文字",
    "Zoom &Out": "缩小(&O)",
    "Smaller text": "缩小文字",
    "&About Tensor Explorer": "关于 Tensor Explorer(&A)",
    "Version and credits": "版本与致谢",
    "&Keyboard Shortcuts": "键盘快捷键(&K)",
    "All keyboard shortcuts": "所有键盘快捷键",
    # -- main_window: status bar and kernel state -------------------------------------------------
    "Starting the Python kernel…": "正在启动 Python 内核…",
    "Interrupted: the running code was stopped": "已中断：正在运行的代码被停止了",
    "Kernel starting…": "内核启动中…",
    "Kernel idle": "内核空闲",
    "Kernel busy": "内核忙碌",
    "Kernel restarting…": "内核重启中…",
    "Kernel stopped": "内核已停止",
    "The Python process that runs your code. Stop interrupts it; Restart starts a fresh one.":
        "运行你代码的 Python 进程。“停止”会中断它，“重启”会启动一个新的进程。",
    "torch {version}": "torch {version}",
    "torch {version} (not imported yet)": "torch {version}（尚未导入）",
    "torch is not installed": "未安装 torch",
    "⚠ no_grad: gradients are off": "⚠ no_grad：梯度计算已关闭",
    "torch.is_grad_enabled() is False in the kernel: operations are not recorded for backward()":
        "内核中 torch.is_grad_enabled() 为 False：运算不会被记录到计算图，backward() 无从求导",
    "The kernel died (the code crashed or called exit); it is restarting. Your script is safe in the editor.":
        "内核已退出（代码崩溃或调用了 exit），正在重启。你的脚本仍完好地保留在编辑器中。",
    "A fresh kernel is ready; run your code again": "新的内核已就绪，请重新运行你的代码",
    "{url}: only files on this computer can be opened, not web addresses.":
        "{url}：只能打开本机上的文件，不能打开网址。",
    # -- window_files: dialogs, banners, lessons and recovery -------------------------------------
    "Open Script": "打开脚本",
    "Python scripts (*.py);;All files (*)": "Python 脚本 (*.py);;所有文件 (*)",
    "Python scripts (*.py)": "Python 脚本 (*.py)",
    "{path} could not be opened: {why}": "无法打开 {path}：{why}",
    "Could not save {path}: {why}": "无法保存 {path}：{why}",
    "Saved {path}": "已保存 {path}",
    "Save Script": "保存脚本",
    "untitled": "未命名",
    "Open Data": "打开数据",
    "Load anyway?": "仍要加载吗？",
    "{message}\n\nLoad anyway — this runs code from the file. Only do this for files you trust.":
        "{message}\n\n仍要加载吗？加载会运行文件中的代码。请只对你信任的文件这样做。",
    "Load anyway": "仍然加载",
    "{n} file(s) could not be opened:": "有 {n} 个文件无法打开：",
    "Open this lesson; step through it with Shift+Enter": "打开这节课；用 Shift+Enter 逐个单元格运行",
    "There is no lesson called {name}.": "没有名为 {name} 的课程。",
    "an untitled script": "未命名脚本",
    "Tensor Explorer did not close normally. Restore the unsaved text of {where}?":
        "Tensor Explorer 上次没有正常关闭。要恢复 {where} 中未保存的内容吗？",
    "Restore": "恢复",
    "Discard": "丢弃",
    "About Tensor Explorer": "关于 Tensor Explorer",
    "Tensor Explorer {version}\nSee what every tensor is: shape, dtype, device, strides, shared memory, "
    "autograd and images.":
        "Tensor Explorer {version}\n看清每个张量：形状、数据类型、设备、步长、共享内存、自动求导和图像。",
    "Keyboard Shortcuts": "键盘快捷键",
    # -- banner_widget ----------------------------------------------------------------------------
    "Close": "关闭",
    # -- detail_tabs_widget -----------------------------------------------------------------------
    "Image": "图像",
    "Values": "数值",
    "Stats": "统计",
    "Memory": "内存",
    "Graph": "计算图",
    "The tensor drawn as an image, with the channel order fixed automatically":
        "把张量画成图像，自动调整通道顺序",
    "The numbers themselves: pick two dimensions and slide through the others":
        "具体的数值：选两个维度显示成表格，用滑块浏览其余维度",
    "Minimum, maximum, mean, standard deviation, NaN/Inf counts and a histogram":
        "最小值、最大值、均值、标准差、NaN/Inf 个数和直方图",
    "The memory block behind the variable and which cells each view reaches":
        "变量背后的内存块，以及每个视图会访问哪些格子",
    "The autograd graph backward() will walk, from the leaves to this tensor":
        "backward() 将要遍历的自动求导计算图，从叶子节点一直到这个张量",
    # -- inspector_columns: short headers (identifiers stay as the API spells them) ---------------
    "Name": "名称",
    "Change": "变化",
    "Type": "类型",
    "Shape": "形状",
    "Dtype": "数据类型",
    "Device": "设备",
    "Strides": "步长",
    "Offset": "存储偏移",
    "data_ptr": "data_ptr",
    "Contiguous": "连续",
    "Elements": "元素个数",
    "Bytes": "字节数",
    "requires_grad": "requires_grad",
    "Leaf": "叶子",
    "grad_fn": "grad_fn",
    "retains_grad": "retains_grad",
    "Grad": "梯度",
    # -- inspector_columns: teaching tooltips -----------------------------------------------------
    "The variable's name in your code. Children of lists, dicts and modules are indented.":
        "变量在代码中的名字。列表、字典和模块里的子项会缩进显示。",
    "What the last run did to this variable: new, changed, or changed through another name that shares its memory.":
        "上一次运行对这个变量做了什么：新建、修改，或者通过共享同一块内存的另一个名字被修改。",
    "The Python type: Tensor, Parameter (a tensor a model learns), ndarray (NumPy), or another object.":
        "Python 类型：Tensor（张量）、Parameter（模型要学习的张量）、ndarray（NumPy 数组）或其他对象。",
    "How many elements along each dimension. A scalar has shape []; an RGB image tensor is usually [3, H, W].":
        "每个维度上有多少个元素。标量的形状是 []；RGB 图像张量的形状通常是 [3, H, W]。",
    "The element type: float32 is the default for tensors, int64 for integer data; most layers refuse integers.":
        "元素的数据类型：张量默认是 float32，整数数据默认是 int64；大多数网络层不接受整数。",
    "Where the data lives (cpu, cuda:0). Tensors in one operation must be on the same device.":
        "数据所在的设备（cpu、cuda:0）。参与同一个运算的张量必须在同一设备上。",
    "How many elements to skip in memory to move one step along each dimension. A view changes strides, not data.":
        "沿某个维度前进一步时，在内存中要跳过多少个元素。视图改变的是步长，而不是数据。",
    "Where this tensor's first element sits in its storage, counted in elements. Slices that skip rows have an offset.":
        "张量的第一个元素位于其存储中的位置，以元素个数计。跳过前几行的切片会有存储偏移。",
    "The memory address of the first element: storage address + offset x element size.":
        "第一个元素的内存地址：存储地址 + 存储偏移 x 元素大小。",
    "Whether the elements lie in memory in row-major order with no gaps. view() needs this; reshape() copies when it is not.":
        "元素是否按行优先顺序在内存中紧密排列、没有间隙。view() 要求张量连续；不连续时 reshape() 会复制数据。",
    "The number of elements: the product of the shape.": "元素个数：形状中各维长度的乘积。",
    "Memory the elements take: number of elements x element size.": "元素占用的内存：元素个数 x 元素大小。",
    "Whether autograd records operations on this tensor so backward() can compute its gradient.":
        "自动求导是否记录对这个张量的运算，以便 backward() 计算它的梯度。",
    "A leaf tensor was created by you, not computed; only leaves get .grad filled by backward().":
        "叶子张量是你直接创建的，而不是运算得到的；backward() 只会填充叶子节点的 .grad。",
    "The operation that produced this tensor (e.g. MulBackward0); backward() walks these back to the leaves.":
        "产生这个张量的运算（例如 MulBackward0）；backward() 沿着它们一路回溯到叶子节点。",
    "Whether this non-leaf tensor keeps its .grad after backward() (set with retain_grad()).":
        "这个非叶子张量在 backward() 之后是否保留 .grad（用 retain_grad() 设置）。",
    "The gradient backward() stored for this leaf; empty until backward() runs.":
        "backward() 为这个叶子张量存下的梯度；运行 backward() 之前为空。",
    "Variables with the same colour share one block of memory: writing to one can change the others.":
        "颜色相同的变量共享同一块内存：修改其中一个，可能会改变其他变量。",
    # -- inspector_model --------------------------------------------------------------------------
    "new": "新建",
    "changed": "已修改",
    "changed through {name}": "经由 {name} 修改",
    "nn.Parameter: a tensor the model learns; optimizers update it after backward().":
        "nn.Parameter：模型要学习的张量；优化器会在 backward() 之后更新它。",
    "The last run never wrote {name} by name: it wrote {alias}, which shares its memory.":
        "上一次运行并没有直接写 {name}，而是写了与它共享内存的 {alias}。",
    # -- inspector_view ---------------------------------------------------------------------------
    "Filter variables by name": "按名称筛选变量",
    "Show only variables whose name contains this text": "只显示名称中包含这段文字的变量",
    # -- memory_relations -------------------------------------------------------------------------
    "{a} and {b} are the same memory (torch.from_numpy / .numpy())":
        "{a} 和 {b} 是同一块内存（torch.from_numpy / .numpy()）",
    "{a} and {b} share one allocation but no element": "{a} 和 {b} 属于同一块内存分配，但没有共同的元素",
    "{a} is a view of {b} (strides {s}; offset {o})": "{a} 是 {b} 的视图（步长 {s}；存储偏移 {o}）",
    "{b} is a view of {a} (strides {s}; offset {o})": "{b} 是 {a} 的视图（步长 {s}；存储偏移 {o}）",
    "{a} and {b} are the same memory": "{a} 和 {b} 是同一块内存",
    "{a} and {b} overlap in memory": "{a} 和 {b} 的内存有重叠",
    "{a} has its memory to itself": "{a} 独占自己的内存",
    "Checking which elements {name} shares…": "正在检查 {name} 与哪些变量共享元素…",
    "Could not check the shared memory: {why}": "无法检查共享内存：{why}",
    "Loading…": "正在加载…",
    "Stopped (KeyboardInterrupt)": "已停止（KeyboardInterrupt）",
    "Type PyTorch code here and press F5 to run it, e.g.\n\nimport torch\nt = torch.arange(10).reshape(2, 5)\ncols = t[:, 1:3]\n\nOr open a ready lesson from the Lessons menu and step through it with Shift+Enter.": "在这里输入 PyTorch 代码，按 F5 运行，例如：\n\nimport torch\nt = torch.arange(10).reshape(2, 5)\ncols = t[:, 1:3]\n\n也可以从“课程”菜单打开现成的课程，用 Shift+Enter 逐格运行。",
}
