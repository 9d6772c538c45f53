"""Simplified Chinese for the sentences the kernel sends to the detail views and the file loader.

The core writes its sentences in English, the CLI's language.  When the GUI runs in
Chinese the agent passes them through :func:`localize`: each entry of the
template tables matches one English template of the core exactly, with named groups
for the variable parts; a group whose name starts with ``t_`` is itself translated
(e.g. the reason inside "x is not an image: <reason>.").  A sentence without an
entry stays English rather than being guessed at.
"""

from __future__ import annotations

import re
from typing import Any

_VIEW_TEMPLATES: tuple[tuple[str, str], ...] = (
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
_FILE_TEMPLATES: tuple[tuple[str, str], ...] = (
    # -- files: where and what -------------------------------------------------
    (r"(?P<f>'.+') \(tensor (?P<k>.+)\)", "{f}（张量 {k}）"),
    (r"(?P<f>'.+') \(array (?P<k>.+)\)", "{f}（数组 {k}）"),
    (r"a NumPy \.npy array", "NumPy .npy 数组"), (r"a NumPy \.npz archive", "NumPy .npz 压缩包"),
    (r"a PyTorch checkpoint", "PyTorch 检查点"), (r"a safetensors file", "safetensors 文件"),
    (r"an image", "图像"), (r"a zip archive", "zip 压缩包"), (r"a damaged zip archive", "损坏的 zip 压缩包"),
    (r"an array", "数组"), (r"arrays", "数组"),
    (r"extract the arrays you need one by one with (?P<code>np\.load\(path\)\['key'\])",
     "请用 {code} 逐个取出需要的数组"),
    (r"use (?P<code>safe_open\(.+\)\.get_slice\(key\)) to read parts of it", "请用 {code} 只读取其中一部分"),
    (r"re-save it with torch\.save so it can be memory-mapped", "请用 torch.save 重新保存，以便按内存映射载入"),
    # -- files: why a file cannot be loaded ---------------------------------------
    (r"No file was given", "没有给出文件"),
    (r"Several paths were given; please load one file at a time", "给出了多个路径；请一次载入一个文件"),
    (r"(?P<f>.+) is a folder, not a file; drop a single data file instead", "{f} 是文件夹，不是文件；请拖入单个数据文件"),
    (r"(?P<f>.+) is not a regular file \(it may be a device or a pipe\)", "{f} 不是普通文件（可能是设备或管道）"),
    (r"(?P<f>.+) is empty \(0 bytes\)", "{f} 是空文件（0 字节）"),
    (r"(?P<f>.+) is a script, not data; open it in the editor", "{f} 是脚本，不是数据；请在编辑器中打开它"),
    (r"Tensor Explorer does not load (?P<ext>.+?) files; it looks like (?P<t_kind>.+?); it opens "
     r"\.npy, \.npz, \.pt, \.pth, \.safetensors and image files",
     "Tensor Explorer 不载入 {ext} 文件（它看起来像 {t_kind}）；能打开的是 .npy、.npz、.pt、.pth、.safetensors 和图像文件"),
    (r"Tensor Explorer does not load (?P<ext>.+?) files; it opens \.npy, \.npz, \.pt, \.pth, \.safetensors and image files",
     "Tensor Explorer 不载入 {ext} 文件；能打开的是 .npy、.npz、.pt、.pth、.safetensors 和图像文件"),
    (r"(?P<f>.+) is damaged or truncated: its zip directory cannot be read", "{f} 已损坏或不完整：无法读取它的 zip 目录"),
    (r"(?P<f>.+) is not (?P<t_kind>.+) \(its first bytes do not match the format\); "
     r"it may be damaged or have the wrong extension", "{f} 不是 {t_kind}（开头的字节与该格式不符）；它可能已损坏，或扩展名不对"),
    (r"(?P<f>.+) is a zip archive but not (?P<t_kind>.+)", "{f} 是 zip 压缩包，但不是 {t_kind}"),
    (r"(?P<f>.+) is named like (?P<t_a>.+) but holds (?P<t_b>.+); rename it to end in (?P<ext>\S+) to load it",
     "{f} 的名字像 {t_a}，内容却是 {t_b}；把扩展名改成 {ext} 就能载入"),
    (r"(?P<f>.+) is on another computer \((?P<host>.*)\); copy it to this one first", "{f} 在另一台计算机（{host}）上；请先复制到本机"),
    (r"(?P<f>.+) is a (?P<scheme>\S+) address, not a file on this computer; download it first and load the saved file",
     "{f} 是 {scheme} 地址，不是本机上的文件；请先下载，再载入保存下来的文件"),
    (r"There is no file at (?P<f>.+)", "{f} 处没有文件"),
    (r"You do not have permission to open (?P<f>.+)", "没有权限打开 {f}"),
    (r"You do not have permission to read (?P<f>.+)", "没有权限读取 {f}"),
    (r"(?P<f>.+) cannot be opened \((?P<why>.+)\)", "无法打开 {f}（{why}）"),
    (r"(?P<f>.+) cannot be read \((?P<why>.+)\)", "无法读取 {f}（{why}）"),
    (r"There is not enough memory to check (?P<f>.+)", "内存不足，无法检查 {f}"),
    (r"(?P<f>.+) is nested too deeply to check safely", "{f} 嵌套太深，无法安全地检查"),
    (r"(?P<f>.+) could not be checked \(unexpected (?P<exc>.+)\); it may be damaged", "无法检查 {f}（意外的 {exc}）；它可能已损坏"),
    (r"Loading (?P<f>.+) would need (?P<need>.+) of memory but only (?P<free>.+) is free; (?P<t_advice>.+)",
     "载入 {f} 需要 {need} 内存，但只剩 {free} 可用；{t_advice}"),
    (r"(?P<f>.+) declares more than (?P<n>[\d,]+) pixels, Pillow's limit against decompression bombs "
     r"\(tiny files that expand to huge images\)", "{f} 声明的像素超过 {n} 个，这是 Pillow 防范解压炸弹（解压后变成巨大图像的小文件）的上限"),
    (r"(?P<f>.+) is not an image Pillow can read", "{f} 不是 Pillow 能读取的图像"),
    (r"(?P<f>.+) is a damaged or truncated image", "{f} 是损坏或不完整的图像"),
    (r"(?P<f>.+) is not a valid Python variable name", "{f} 不是合法的 Python 变量名"),
    (r"The loading code itself uses (?P<f>.+); please choose another variable name", "载入代码本身用到了 {f}；请换一个变量名"),
    (r"(?P<t_f>.+) holds (?P<t_what>.+) of Python objects, which NumPy stores as pickles, so loading it would run "
     r"code from the file; load it only if you trust where it came from",
     "{t_f} 含有由 Python 对象组成的{t_what}，NumPy 用 pickle 保存它们，载入就会运行文件里的代码；只有信任文件来源时才载入"),
    (r"(?P<f>.+?) holds pickled Python objects(?P<shown> \(.*\))?, not just tensors, so loading it would run code "
     r"from the file; load it only if you trust where it came from",
     "{f} 含有用 pickle 保存的 Python 对象{shown}，不只是张量，载入就会运行文件里的代码；只有信任文件来源时才载入"),
    (r"(?P<t_f>.+) is damaged or truncated: (?P<t_why>.+)", "{t_f} 已损坏或不完整：{t_why}"),
    (r"(?P<t_f>.+) is damaged: (?P<t_why>.+)", "{t_f} 已损坏：{t_why}"),
    (r"(?P<t_f>.+) is truncated: (?P<t_why>.+)", "{t_f} 不完整：{t_why}"),
    (r"(?P<t_f>.+) is encrypted, which NumPy cannot read", "{t_f} 已加密，NumPy 无法读取"),
    (r"(?P<f>.+) has an unusually large header, which NumPy refuses to read", "{f} 的文件头大得异常，NumPy 拒绝读取"),
    (r"(?P<f>.+) is an empty \.npz archive with no arrays", "{f} 是空的 .npz 压缩包，里面没有数组"),
    (r"(?P<t_f>.+) uses dtype (?P<d>.+), which PyTorch cannot load", "{t_f} 使用 dtype {d}，PyTorch 无法载入"),
    (r"(?P<f>.+) declares a (?P<n>.+) header, more than safetensors allows", "{f} 声明了 {n} 的文件头，超过 safetensors 允许的大小"),
    (r"(?P<f>.+) could not be read as a PyTorch checkpoint", "{f} 无法作为 PyTorch 检查点读取"),
    (r"(?P<f>.+) is damaged or is not a PyTorch checkpoint", "{f} 已损坏，或者不是 PyTorch 检查点"),
    # -- files: the reasons after "is damaged/truncated:" --------------------------
    (r"its zip archive cannot be read", "无法读取它的 zip 压缩包"),
    (r"its pickled index cannot be read", "无法读取其中用 pickle 保存的索引"),
    (r"its \.npy header cannot be read", "无法读取 .npy 文件头"),
    (r"it is not a readable \.npz archive", "它不是可读取的 .npz 压缩包"),
    (r"its header declares a negative size", "文件头声明了负的大小"),
    (r"its header promises (?P<a>.+) of data but the file holds only (?P<b>.+)", "文件头声明有 {a} 数据，文件却只有 {b}"),
    (r"array (?P<k>.+) ends past the end of the file", "数组 {k} 超出了文件末尾"),
    (r"array (?P<k>.+) holds less data than its header declares", "数组 {k} 的数据比文件头声明的少"),
    (r"its safetensors header is not a JSON object", "safetensors 文件头不是 JSON 对象"),
    (r"its safetensors header is not valid JSON", "safetensors 文件头不是合法的 JSON"),
    (r"the header entry is not an object", "文件头中的条目不是对象"),
    (r"its shape is not a list of sizes", "shape 不是由尺寸组成的列表"),
    (r"its data offsets are not two positions", "data_offsets 不是两个位置"),
    (r"its byte range does not match its shape and dtype", "字节范围与 shape 和 dtype 不符"),
    (r"its __metadata__ is not a map of strings", "__metadata__ 不是字符串到字符串的映射"),
    (r"the header describes (?P<a>.+) of tensor data but the file holds (?P<b>.+)", "文件头描述了 {a} 张量数据，文件却只有 {b}"),
    (r"it has (?P<a>.+) of unexplained data", "有 {a} 来历不明的数据"),
    (r"it is shorter than a safetensors header", "比 safetensors 文件头还短"),
    (r"its header runs past the end of the file", "文件头超出了文件末尾"),
    (r"its tensors overlap or leave gaps", "张量之间有重叠或空隙"),
)

_COMPILED = tuple((re.compile(pattern, re.DOTALL), template) for pattern, template in _VIEW_TEMPLATES + _FILE_TEMPLATES)
#: Fields of replies (by request) that hold sentences for the user.
_TEXT_FIELDS = {"image": ("notes", "device_note", "range_note"), "stats_poll": ("error",), "prepare_load": ("error",)}


_CJK_GAP = re.compile(r"(?<=[\u4e00-\u9fff）])\s+(?=[\u4e00-\u9fff])")


def to_zh(text: str) -> str:
    """The Chinese of one English sentence of the core; *text* itself when there is none."""
    for pattern, template in _COMPILED:
        match = pattern.fullmatch(text)
        if match:
            parts = {k: ("" if v is None else to_zh(v) if k.startswith("t_") else v)
                     for k, v in match.groupdict().items()}
            # A space belongs between Chinese and Latin text, not between two Chinese words.
            return _CJK_GAP.sub("", template.format(**parts))
    if text.endswith(".") and not text.endswith(".."):  # file errors end their one sentence with a period
        inner = to_zh(text[:-1])
        if inner != text[:-1]:
            return inner + "。"
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
