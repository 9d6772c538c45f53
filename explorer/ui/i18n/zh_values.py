"""Simplified Chinese for the Values and Stats tabs (explorer.ui.values_view, explorer.ui.stats_view)."""

from __future__ import annotations

STRINGS: dict[str, str] = {
    # values_view
    "Rows:": "行：",
    "Columns:": "列：",
    "Heat map": "热力图",
    "Colour each cell by its value (blue low, orange high)": "按数值给每个格子着色（蓝色小，橙色大）",
    "The dimension listed down the rows": "沿行方向（竖向）列出的维度",
    "The dimension listed across the columns": "沿列方向（横向）列出的维度",
    "dim {dim} (size {size})": "第 {dim} 维（长度 {size}）",
    "index of dim {dim}:": "第 {dim} 维的下标：",
    "Which index of dim {dim} is shown (size {size})": "显示第 {dim} 维的哪个下标（长度 {size}）",
    "storage position: {position}": "在存储中的位置：{position}",
    "The values could not be read.": "无法读取这些数值。",
    "Select a tensor or array to see its values.": "选中一个张量或数组，即可查看它的数值。",
    "This variable is not a tensor or array, so it has no values table.": "这个变量不是张量也不是数组，没有数值表。",
    "This tensor has no elements (one of its dimensions has size 0).": "这个张量没有元素（它有一个维度的长度为 0）。",
    "Only the first {rows} rows and {cols} columns are listed.": "只列出前 {rows} 行、前 {cols} 列。",
    # stats_view
    "Compute": "计算",
    "Compute the statistics in the kernel (large tensors take a moment)": "在内核中计算统计量（大张量需要稍等片刻）",
    "Cancel": "取消",
    "Elements": "元素个数",
    "Min": "最小值",
    "Max": "最大值",
    "Mean": "均值",
    "Std": "标准差",
    "NaN": "NaN",
    "+Inf": "+Inf",
    "-Inf": "-Inf",
    "Zeros": "零的个数",
    "Standard deviation, computed like the library does (torch: t.std() divides by n-1; numpy: a.std() by n)":
        "标准差，与所用库的算法一致（torch 的 t.std() 除以 n-1；numpy 的 a.std() 除以 n）",
    "Press Compute to read every element.": "点击“计算”以读取全部元素。",
    "Select a tensor or array to see its statistics.": "选中一个张量或数组，即可查看它的统计量。",
    "Computing…": "正在计算…",
    "Cancelled.": "已取消。",
    "The statistics could not be computed.": "无法计算统计量。",
    "The statistics could not be started.": "无法开始计算统计量。",
    "The statistics job was lost (the kernel restarted?).": "统计任务丢失了（内核是否重启过？）。",
    "Note: {note}": "说明：{note}",
    "value": "数值",
    "count": "个数",
    "count (sample: 1 in {step} elements)": "个数（抽样：每 {step} 个元素取 1 个）",
}
