"""Simplified Chinese for the error card (explorer/ui/error_card_view.py), keyed by the English source text.

The card's titles, explanations and fixes come translated from the kernel
(explorer/core/errors*.py); only the card's own labels are here.
"""

STRINGS: dict[str, str] = {
    "Why": "原因",
    "Fix": "修改方法",
    "Copy": "复制",
    "Copied": "已复制",
    "Copy the fix to the clipboard": "把修改方法复制到剪贴板",
    "line {n}": "第 {n} 行",
    "Go to this line in the editor": "在编辑器中跳到这一行",
    "Traceback (last lines)": "调用栈（最后几行）",
}
