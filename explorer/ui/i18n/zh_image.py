"""Simplified Chinese for the Image tab (explorer.ui.image.image_view)."""

from __future__ import annotations

STRINGS: dict[str, str] = {
    "Layout:": "布局：",
    "Auto": "自动",
    "How the axes are read: C channels, H height, W width, N batch": "各维度的含义：C 通道，H 高，W 宽，N 批次",
    "Channel:": "通道：",
    "Colormap:": "色图：",
    "grayscale": "灰度",
    "Colours for a one-channel image": "单通道图像使用的配色",
    "Copy": "复制",
    "Copy this line to the clipboard": "把这行代码复制到剪贴板",
    "The line that draws this picture yourself with matplotlib": "用 matplotlib 自己画出这张图的那行代码",
    "Select a tensor or an array to draw it as an image.": "选中一个张量或数组，即可把它画成图像。",
    "{name} is a {type}, not a tensor or an array, so there is no image to draw.":
        "{name} 是 {type}，不是张量也不是数组，没有图像可画。",
    "{name} has {n} dimension(s); an image needs 2 (H, W), 3 (C, H, W or H, W, C) or 4 (a batch).":
        "{name} 有 {n} 个维度；图像需要 2 维 (H, W)、3 维 (C, H, W 或 H, W, C) 或 4 维（一批图像）。",
    "{name} cannot be drawn as an image: {reason}": "{name} 无法画成图像：{reason}",
    "min-max normalised from {lo} to {hi}": "按最小–最大值归一化（{lo} 到 {hi}）",
    "(range of the drawn pixels)": "（范围取自绘制的采样像素）",
    "integers shown as 0–255 (clipped)": "整数按 0–255 显示（超出部分截断）",
    "as is": "原样显示",
    "layout {layout}": "布局 {layout}",
    "layout {layout}, guessed": "布局 {layout}（推测）",
    "true size {height} × {width}, zoom {zoom}×": "实际大小 {height} × {width}，缩放 {zoom}×",
    "{shown} of {count} images in a {rows} × {cols} grid": "{count} 张中的 {shown} 张，排成 {rows} × {cols} 网格",
    "channel {index} alone": "仅显示通道 {index}",
    "All channels": "全部通道",
    "red": "红",
    "green": "绿",
    "blue": "蓝",
    "alpha": "透明度",
    "Channel {index} ({color})": "通道 {index}（{color}）",
    "Channel {index}": "通道 {index}",
}
