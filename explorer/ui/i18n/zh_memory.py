"""Simplified Chinese for the memory map (``explorer/ui/memory_map_view.py``)."""

from __future__ import annotations

STRINGS: dict[str, str] = {
    "Select a tensor or array to see its memory.": "选择一个张量或数组，查看它的内存。",
    "Only tensors and arrays have a memory map.": "只有张量和数组才有内存图。",
    "Loading memory map…": "正在读取内存图…",
    "Could not draw the memory map: {error}": "无法绘制内存图：{error}",
    "No storage to draw: {note}": "没有可绘制的存储：{note}",
    "memory group {group}": "内存组 {group}",
    "not shared with other variables": "未与其他变量共享",
    "allocation: {nbytes} bytes": "分配块：{nbytes} 字节",
    "1 cell = {n} bytes": "每格 = {n} 字节",
    "1 cell = 1 element ({n} bytes)": "每格 = 1 个元素（{n} 字节）",
    "1 cell = 1 byte": "每格 = 1 字节",
    "memory": "内存",
    "cell {cell}: {value}": "第 {cell} 格：{value}",
    "{name} does not reach this cell": "{name} 不会访问这一格",
    "{name} reaches this cell": "{name} 会访问这一格",
    "reached {n} times": "被访问 {n} 次",
    "{name}{index}: offset + Σ index × stride = {formula}":
        "{name}{index}：偏移 + Σ 下标 × 步长 = {formula}",
}
