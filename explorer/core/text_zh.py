"""Simplified Chinese for the sentences the kernel sends to the detail views.

The core writes its sentences in English, the CLI's language.  When the GUI runs in
Chinese the agent passes them through :func:`localize`: each entry of
``_TEMPLATES`` matches one English template of the core exactly, with named groups
for the variable parts; a group whose name starts with ``t_`` is itself translated
(e.g. the reason inside "x is not an image: <reason>.").  A sentence without an
entry stays English rather than being guessed at.
"""

from __future__ import annotations

import re
from typing import Any

_TEMPLATES: tuple[tuple[str, str], ...] = (
    # -- images: why a value cannot be drawn ------------------------------------
    (r"(?P<name>.+) is empty \(shape (?P<shape>\[.*\])\): there are no pixels to draw\.",
     "{name} 是空的（形状 {shape}）：没有可画的像素。"),
    (r"(?P<name>.+) cannot be drawn: (?P<t_reason>.+)\.", "{name} 无法绘制：{t_reason}。"),
    (r"(?P<name>.+) is not an image: (?P<t_reason>.+)\.", "{name} 不是图像：{t_reason}。"),
    (r"(?P<name>.+) has (?P<n>\d+) channel\(s\) in layout (?P<layout>\w+); there is no channel (?P<ch>-?\d+)\.",
     "按布局 {layout}，{name} 有 {n} 个通道，没有第 {ch} 号通道。"),
    (r"(?P<name>.+) has (?P<n>\d+) channels in layout (?P<layout>\w+); choose one channel to draw it\.",
     "按布局 {layout}，{name} 有 {n} 个通道，无法一起画出；请选择一个通道。"),
    (r"Unknown layout (?P<layout>.+); use one of (?P<choices>.+)\.", "未知布局 {layout}；请用 {choices} 之一。"),
    (r"Layout (?P<layout>\w+) needs a (?P<n>\d+)-D value, but the shape is (?P<shape>\[.*\])\.",
     "布局 {layout} 需要 {n} 维的值，但形状是 {shape}。"),
    (r"A (?P<type>.+) is not a tensor or an array, so it cannot be drawn as an image\.",
     "{type} 不是张量或数组，无法画成图像。"),
    (r"(?P<name>.+) is on the meta device: it has a shape but no values to draw\.",
     "{name} 在 meta 设备上：只有形状，没有可画的值。"),
    (r"(?P<name>.+) is a nested tensor; draw one of its components instead\.",
     "{name} 是嵌套张量；请改画它的某一个分量。"),
    (r"(?P<name>.+) is a large sparse tensor; draw a slice of (?P<expr>.+)\.",
     "{name} 是很大的稀疏张量；请画 {expr} 的一个切片。"),
    # -- images: layout reasons (inside the sentences above) --------------------
    (r"dtype (?P<dtype>.+) holds no numbers to draw", "dtype {dtype} 中没有可画的数值"),
    (r"a (?P<n>\d+)-D value is not an image \(images have 2 to 4 dimensions\)",
     "{n} 维的值不是图像（图像有 2 到 4 维）"),
    (r"shape (?P<shape>\[.*\]): neither (?P<a>\d+) nor (?P<b>\d+) is a channel count \(1, 3 or 4\); "
     r"choose a layout and one channel, or slice one image",
     "形状 {shape}：{a} 和 {b} 都不是通道数（1、3 或 4）；请选择布局和一个通道，或切出一张图像"),
    # -- images: notes under the picture ----------------------------------------
    (r"complex values: drawing the magnitude \|z\|", "复数：画的是模 |z|"),
    (r"no finite values: everything is drawn black", "没有有限值：全部画成黑色"),
    (r"(?P<n>\d+) NaN value\(s\) drawn as 0 \(black\)", "{n} 个 NaN 值画成 0（黑色）"),
    (r"(?P<n>\d+) infinite value\(s\) drawn at the ends of the range", "{n} 个无穷值画在范围的两端"),
    (r"bool: False is black, True is white", "布尔值：False 为黑，True 为白"),
    (r"showing the first (?P<shown>\d+) of (?P<count>\d+) images", "显示 {count} 张图像中的前 {shown} 张"),
    (r"range measured on the drawn pixels \(every (?P<step>\d+)th row and column, first (?P<shown>\d+) images\), "
     r"not on every element", "范围是在画出的像素上测得的（行、列每 {step} 个取一个，只看前 {shown} 张图像），不是在全部元素上"),
    (r"range measured on the drawn pixels \(every (?P<step>\d+)th row and column\), not on every element",
     "范围是在画出的像素上测得的（行、列每 {step} 个取一个），不是在全部元素上"),
    (r"sampled on (?P<device>\S+) \(every (?P<step>\d+)th pixel\), then only that sample was copied to the CPU",
     "先在 {device} 上采样（每 {step} 个像素取一个），只把样本复制到 CPU"),
    (r"drawn from a detached copy; the tensor and its graph are untouched",
     "从 detach 出的副本绘制；张量和它的计算图都没有被改动"),
    # -- values table -----------------------------------------------------------
    (r"(?P<type>.+) is not a tensor or array, so it has no values table\.", "{type} 不是张量或数组，没有数值表。"),
    (r"This is a meta tensor: it has a shape and dtype but no data to show\.",
     "这是 meta 张量：只有形状和 dtype，没有可显示的数据。"),
    (r"Nested tensors have rows of different lengths; the values table cannot show them\.",
     "嵌套张量各行长度不同，数值表无法显示。"),
    (r"This sparse tensor stores (?P<n>\d+) values; cutting a window out of it would be too slow\.",
     "这个稀疏张量存了 {n} 个值，从中切出窗口会太慢。"),
    # -- statistics -------------------------------------------------------------
    (r"(?P<type>.+) is not a tensor or array, so it has no statistics\.", "{type} 不是张量或数组，没有统计量。"),
    (r"Statistics need numbers; this array holds (?P<dtype>.+) values\.", "统计需要数值；这个数组存的是 {dtype}。"),
    (r"This is a meta tensor: it has a shape and dtype but no values\.", "这是 meta 张量：只有形状和 dtype，没有值。"),
    (r"Statistics of nested tensors are not supported\.", "不支持嵌套张量的统计。"),
    # -- names ------------------------------------------------------------------
    (r"no variable named (?P<name>.+)", "没有名为 {name} 的变量"),
    (r"not a variable name: (?P<name>.+)", "不是变量名：{name}"),
)

_COMPILED = tuple((re.compile(pattern, re.DOTALL), template) for pattern, template in _TEMPLATES)
#: Fields of replies (by request) that hold sentences for the user.
_TEXT_FIELDS = {"image": ("notes", "device_note", "range_note"), "stats_poll": ("error",)}


def to_zh(text: str) -> str:
    """The Chinese of one English sentence of the core; *text* itself when there is none."""
    for pattern, template in _COMPILED:
        match = pattern.fullmatch(text)
        if match:
            parts = {k: (to_zh(v) if k.startswith("t_") else v) for k, v in match.groupdict().items()}
            return template.format(**parts)
    if "; " in text:  # notes joined with "; " (e.g. the device note)
        pieces = text.split("; ")
        translated = [to_zh(p) for p in pieces]
        if translated != pieces:
            return "；".join(translated)
    return text


def localize(method: str, reply: dict) -> dict:
    """*reply* (``{"result": ...}`` or ``{"error": ...}``) with its user-facing sentences in Chinese."""
    if isinstance(reply.get("error"), str):
        reply["error"] = to_zh(reply["error"])
    result = reply.get("result")
    if isinstance(result, dict):
        for key in _TEXT_FIELDS.get(method, ()):
            result[key] = _localize_value(result.get(key))
    return reply


def _localize_value(value: Any) -> Any:
    if isinstance(value, str):
        return to_zh(value)
    if isinstance(value, list):
        return [to_zh(v) if isinstance(v, str) else v for v in value]
    return value
