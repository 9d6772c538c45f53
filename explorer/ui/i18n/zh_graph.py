"""Simplified Chinese for the Graph tab (explorer/ui/graph_view.py), keyed by the English source text."""

STRINGS: dict[str, str] = {
    "Zoom out (Ctrl+wheel)": "缩小（Ctrl+滚轮）",
    "Zoom in (Ctrl+wheel)": "放大（Ctrl+滚轮）",
    "Fit": "适应窗口",
    "Show the whole graph": "显示整张图",
    "leaf": "叶子",
    "parameter": "参数",
    "intermediate": "中间结果",
    "output": "输出",
    "operation": "运算",
    "Select a tensor to see the autograd graph that produced it.": "选择一个张量，查看生成它的自动求导计算图。",
    "Only torch tensors have an autograd graph.": "只有 torch 张量才有自动求导计算图。",
    "Reading the graph…": "正在读取计算图…",
    "Could not read the graph: {error}": "无法读取计算图：{error}",
    "Only the first {n} nodes are shown.": "只显示了前 {n} 个节点。",
    "backward() has already run on this graph, so the values it saved were freed. "
    "Calling backward() again raises an error: run the forward pass again "
    "(or pass retain_graph=True the first time).": (
        "这张图已经执行过 backward()，它保存的中间值已被释放。"
        "再次调用 backward() 会报错：请重新做一次前向计算"
        "（或在第一次调用时传入 retain_graph=True）。"
    ),
    "{name} is a leaf tensor: you created it, no operation did, so no graph leads to it. "
    "backward() stores its gradient in {name}.grad.": (
        "{name} 是叶子张量：它由你直接创建，而不是由某个运算得到，所以它背后没有计算图。"
        "backward() 会把它的梯度存进 {name}.grad。"
    ),
    "{name} does not require grad, so autograd recorded no graph for it "
    "(no input had requires_grad=True, or it was made under torch.no_grad() or by detach()).": (
        "{name} 不需要梯度，所以自动求导没有为它记录计算图"
        "（没有输入设置了 requires_grad=True，或者它是在 torch.no_grad() 中或通过 detach() 得到的）。"
    ),
    "{name} is not a torch tensor: only tensors record an autograd graph.": (
        "{name} 不是 torch 张量：只有张量才会记录自动求导计算图。"
    ),
    "This input is used {n} times by the operation.": "这个运算使用了该输入 {n} 次。",
    "Operation: {op}": "运算：{op}",
    "Its saved tensors were freed by backward().": "它保存的张量已被 backward() 释放。",
    "Selected tensor (the output)": "选中的张量（输出）",
    "nn.Parameter (a leaf the optimizer updates)": "nn.Parameter（由优化器更新的叶子张量）",
    "Leaf tensor: gradients accumulate in its .grad": "叶子张量：梯度累积在它的 .grad 中",
    "Intermediate result held in a variable": "保存在变量中的中间结果",
    "shape: {shape}": "形状：{shape}",
    "dtype: {dtype}": "数据类型：{dtype}",
    "requires_grad: {value}": "requires_grad：{value}",
    "grad: {preview}": "梯度：{preview}",
    "grad: None (backward() has not reached it yet)": "梯度：None（backward() 还没有传到这里）",
}
