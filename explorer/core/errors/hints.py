"""Teaching hints for code that ran without raising: grads left None, torch.Tensor(2, 3), .data."""

from __future__ import annotations

import ast
import copy
from typing import Any, Callable

_LEGACY_CTORS = {"Tensor", "FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "HalfTensor",
                 "ByteTensor", "BoolTensor", "ShortTensor", "CharTensor", "BFloat16Tensor"}
_CTOR_DTYPE = {"LongTensor": "torch.long", "IntTensor": "torch.int32", "DoubleTensor": "torch.float64",
               "HalfTensor": "torch.float16", "ByteTensor": "torch.uint8", "BoolTensor": "torch.bool",
               "ShortTensor": "torch.int16", "CharTensor": "torch.int8", "BFloat16Tensor": "torch.bfloat16"}
_MAX_PARAMS = 20


class _Text:
    """Chooses English or Simplified Chinese."""

    def __init__(self, lang: str) -> None:
        self.zh = lang.lower().startswith("zh")

    def __call__(self, en: str, zh: str) -> str:
        return zh if self.zh else en


def _hint(key: str, line: int | None, title: str, explanation: str, fix: str) -> dict[str, Any]:
    return {"key": key, "line": line, "title": title, "explanation": explanation, "fix": fix}


def _is_tensor(value: Any) -> bool:
    return any(b.__name__ == "Tensor" and b.__module__ in ("torch", "torch._tensor") for b in type(value).__mro__)


def _assignments(tree: ast.AST) -> list[tuple[str, ast.AST]]:
    """(name, value node) for every ``name = <value>`` statement."""
    return [(node.targets[0].id, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)]


# -- (b) torch.Tensor(2, 3) ------------------------------------------------------
def _legacy_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "torch":
        return func.attr if func.attr in _LEGACY_CTORS else None
    return func.id if isinstance(func, ast.Name) and func.id in _LEGACY_CTORS else None


def _size_args(call: ast.Call, namespace: dict[str, Any]) -> bool:
    """True when every positional argument is an int (a literal or an int variable)."""
    def is_int(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, int) and not isinstance(node.value, bool)
        return isinstance(node, ast.Name) and type(namespace.get(node.id)) is int

    return bool(call.args) and all(is_int(a) for a in call.args)


def _uninitialised(tree: ast.AST, namespace: dict[str, Any], t: _Text) -> list[dict[str, Any]]:
    targets, found = {id(v): n for n, v in _assignments(tree)}, []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        ctor = _legacy_name(node)
        if ctor is None or not _size_args(node, namespace):
            continue
        sizes = ", ".join(ast.unparse(a) for a in node.args)
        dtype = f", dtype={_CTOR_DTYPE[ctor]}" if ctor in _CTOR_DTYPE else ""
        name = targets.get(id(node), "x")
        explanation = t(
            f"torch.{ctor}({sizes}) reads the numbers as a SIZE and returns uninitialised memory: the values are "
            "whatever bytes were there before (garbage, sometimes huge or NaN), not zeros. "
            "torch.tensor(...) (lower case) is the one that takes data.",
            f"torch.{ctor}({sizes}) 把这些数当作形状，返回未初始化的内存：里面是内存中残留的任意字节（垃圾值，可能很大或是 NaN），"
            "而不是 0。接收数据的是小写的 torch.tensor(...)。",
        )
        fix = (f"{name} = torch.zeros({sizes}{dtype})  # {t('all zeros', '全零')}\n"
               f"{name} = torch.empty({sizes}{dtype})  # {t('only if you fill every value yourself', '仅当你会自己填满所有值时')}\n"
               f"{name} = torch.tensor([1.0, 2.0])  # {t('from data', '用数据创建')}")
        found.append(_hint("tensor_uninitialised", node.lineno,
                           t(f"torch.{ctor}({sizes}) is not zeros", f"torch.{ctor}({sizes}) 不是全零"), explanation, fix))
    return found


# -- (a) grads still None after backward() --------------------------------------
def _backward_line(tree: ast.AST) -> int | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward":
            return node.lineno
    return None


def _used_tensors(tree: ast.AST, namespace: dict[str, Any]) -> dict[str, Any]:
    """Tensors the code names, plus the parameters of modules it names (``model.fc.weight``)."""
    used = dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    found: dict[str, Any] = {}
    for name in used:
        value = namespace.get(name)
        if _is_tensor(value):
            found[name] = value
        elif hasattr(value, "named_parameters") and callable(value.named_parameters):
            for i, (pname, param) in enumerate(value.named_parameters()):
                if i >= _MAX_PARAMS:
                    break
                found[f"{name}.{pname}"] = param
    return found


def _requires_grad_kw(call: ast.AST) -> bool:
    return isinstance(call, ast.Call) and any(
        k.arg == "requires_grad" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords)


def _nonleaf_sources(tree: ast.AST) -> dict[str, ast.AST]:
    """``w = <expr>`` where a nested call (not the outermost) has requires_grad=True: w is not a leaf."""
    found: dict[str, ast.AST] = {}
    for name, value in _assignments(tree):
        if _requires_grad_kw(value):
            continue
        if _spine_has_requires_grad(value):
            found[name] = value
    return found


def _spine_has_requires_grad(node: ast.AST) -> bool:
    """Follow ``f(...).method()`` / ``expr * const`` down to the creating call; True if it sets requires_grad.

    Only the spine counts: in ``loss = (w * x).sum() + torch.zeros(1, requires_grad=True).sum()``
    the loss is a result, not a parameter someone meant to train.
    """
    while True:
        if _requires_grad_kw(node):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant):
            node = node.left
        elif isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
            node = node.right
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            return False


def _leaf_fix(value: ast.AST) -> str:
    """Rewrite ``torch.randn(3, requires_grad=True) * 0.01`` as ``(torch.randn(3) * 0.01).requires_grad_()``."""
    value = copy.deepcopy(value)
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            node.keywords = [k for k in node.keywords if k.arg != "requires_grad"]
    text = ast.unparse(value)
    wrapped = text if isinstance(value, (ast.Call, ast.Name, ast.Attribute)) else f"({text})"
    return f"{wrapped}.requires_grad_()"


def _nonleaf_hint(nonleaf: dict[str, ast.AST], line: int, t: _Text) -> dict[str, Any]:
    names = ", ".join(f"`{n}`" for n in nonleaf)
    explanation = t(
        f"{names} is not a leaf: requires_grad=True was set on a tensor that was then transformed "
        "(multiplied, .double(), .to(device), …). Gradients are kept only on leaves, so its .grad stays None.",
        f"{names} 不是叶子张量：requires_grad=True 设在了一个随后又被变换（相乘、.double()、.to(device) 等）的张量上。"
        "梯度只保存在叶子张量上，所以它的 .grad 一直是 None。",
    )
    fix = "\n".join(f"{n} = {_leaf_fix(v)}" for n, v in nonleaf.items())
    return _hint("grad_non_leaf", line, t("Gradient lands on a hidden leaf", "梯度落在了看不见的叶子张量上"), explanation, fix)


def _broken_hint(broken: list[str], line: int, t: _Text) -> dict[str, Any]:
    names = ", ".join(f"`{n}`" for n in broken)
    explanation = t(
        f"After backward(), {names} still has .grad = None although it requires grad: the loss was not "
        "computed from it. Usual causes: .detach() or .data cut the chain, the computation ran inside "
        "torch.no_grad(), or the value went through .item() / .numpy() and back.",
        f"调用 backward() 之后，{names} 的 .grad 仍是 None，尽管它 requires_grad=True：损失并不是由它算出来的。"
        "常见原因：.detach() 或 .data 切断了链条；计算发生在 torch.no_grad() 里；或者数值经过 .item()/.numpy() 又转了回来。",
    )
    fix = t("# build the loss directly from", "# 直接用这些张量计算损失：") + " " + ", ".join(broken) + \
        t(" (no .detach(), no torch.no_grad())", "（不要 .detach()，不要 torch.no_grad()）")
    return _hint("grads_none", line, t("Gradients are None", "梯度是 None"), explanation, fix)


def _untracked_hint(plain: list[str], line: int, t: _Text) -> dict[str, Any]:
    names = ", ".join(f"`{n}`" for n in plain)
    explanation = t(
        f"After backward(), none of the tensors used here has a gradient: {names} were created without requires_grad=True.",
        f"调用 backward() 之后，这里用到的张量都没有梯度：{names} 创建时没有设置 requires_grad=True。",
    )
    fix = "\n".join(f"{n}.requires_grad_(True)  # {t('before the forward pass', '在前向计算之前')}" for n in plain)
    return _hint("grads_none", line, t("Gradients are None", "梯度是 None"), explanation, fix)


def _grads_none(tree: ast.AST, namespace: dict[str, Any], t: _Text) -> list[dict[str, Any]]:
    line = _backward_line(tree)
    if line is None:
        return []
    tensors = _used_tensors(tree, namespace)
    nonleaf = {n: v for n, v in _nonleaf_sources(tree).items()
               if _is_tensor(namespace.get(n)) and namespace[n].requires_grad and not namespace[n].is_leaf}
    leaves = {n: v for n, v in tensors.items() if v.is_leaf and n not in nonleaf}
    broken = [n for n, v in leaves.items() if v.requires_grad and v.grad is None]
    out = [_nonleaf_hint(nonleaf, line, t)] if nonleaf else []
    if broken:
        out.append(_broken_hint(broken, line, t))
    elif not nonleaf and leaves and all(v.grad is None for v in leaves.values()):
        plain = [n for n, v in leaves.items() if v.is_floating_point() and not v.requires_grad][:4]
        if plain:
            out.append(_untracked_hint(plain, line, t))
    return out


# -- (c) .data on a tensor that requires grad -----------------------------------
def _data_attr(tree: ast.AST, namespace: dict[str, Any], t: _Text) -> list[dict[str, Any]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "data" and isinstance(node.value, ast.Name):
            value = namespace.get(node.value.id)
            if _is_tensor(value) and value.requires_grad:
                name = node.value.id
                explanation = t(
                    f"`{name}.data` shares `{name}`'s memory but hides every change from autograd, which can silently "
                    "give wrong gradients. .detach() shares memory too, but autograd still notices in-place changes.",
                    f"`{name}.data` 与 `{name}` 共享内存，却让自动求导看不到任何修改，可能悄悄得到错误的梯度。"
                    ".detach() 同样共享内存，但自动求导仍能发现原地修改。",
                )
                fix = (f"{name}.detach()  # {t('a view without the graph', '不带计算图的视图')}\n"
                       f"with torch.no_grad():\n    {name} -= 0.1 * {name}.grad  # {t('update parameters', '更新参数')}")
                return [_hint("data_attr", node.lineno, t("Prefer .detach() to .data", "用 .detach() 代替 .data"), explanation, fix)]
    return []


_CHECKS: tuple[Callable[[ast.AST, dict[str, Any], _Text], list[dict[str, Any]]], ...] = (
    _grads_none, _uninitialised, _data_attr)


def find_hints(code: str, namespace: dict[str, Any], *, lang: str = "en") -> list[dict[str, Any]]:
    """All hints for the code, in check order; a check that fails is skipped."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return []
    t = _Text(lang)
    found: list[dict[str, Any]] = []
    for check in _CHECKS:
        try:
            found.extend(check(tree, namespace, t))
        except Exception:  # noqa: BLE001 - one odd value must not hide the other hints
            continue
    return found
