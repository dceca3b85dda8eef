#!/usr/bin/env python3
"""Writes the Python API reference (docs/guide/python-api.md) from the docstrings of the built module:

    PYTHONPATH=build/python /usr/bin/python3 scripts/python_reference.py > docs/guide/python-api.md

tests/python/test_guide.py checks that the committed page is what this prints."""
import importlib
import inspect
import re

# The public modules, in reading order; each lists its names in __all__.
MODULES = ["kbo", "kbo.kernels", "kbo.kfo", "kbo.plot", "kbo.sklearn", "kbo.integrations.optuna"]


def signature(obj, name):
    """`name(args)` from inspect, or the first docstring line of a pybind11 function (which holds it)."""
    try:
        # Postponed annotations are strings: show them bare (`x: int`, not `x: 'int'`).
        text = f"{name}{inspect.signature(obj)}"
        return re.sub(r"(: |-> )'([^']*)'", r"\1\2", text)
    except (TypeError, ValueError):
        first = (inspect.getdoc(obj) or "").splitlines()
        return first[0] if first and first[0].startswith(name) else name


def doc_body(obj, name):
    text = inspect.getdoc(obj) or ""
    lines = text.splitlines()
    if lines and lines[0].startswith(name + "("):  # pybind11: the signature line is shown as the heading
        lines = lines[1:]
    return "\n".join(lines).strip()


def public_members(cls):
    for attr, value in sorted(vars(cls).items()):
        if attr.startswith("_") and attr != "__init__":
            continue
        yield attr, value


def describe_class(cls, qualname, out):
    out.append(f"### class `{qualname}`\n")
    body = doc_body(cls, cls.__name__)
    if body:
        out.append(body + "\n")
    for attr, value in public_members(cls):
        if isinstance(value, property):
            doc = inspect.getdoc(value) or ""
            out.append(f"- `{attr}` (property){': ' + doc.splitlines()[0] if doc else ''}")
        elif callable(value) or isinstance(value, (staticmethod, classmethod)):
            func = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            sig = signature(func, attr).replace("(self, ", "(").replace("(self)", "()")
            doc = doc_body(func, attr)
            if doc.startswith("Initialize self."):
                doc = ""  # object's own __init__ text says nothing
            out.append(f"- `{sig}`" + (f": {doc.splitlines()[0]}" if doc else ""))
    out.append("")


def main():
    out = ["# Python API reference", "",
           "Generated from the module's docstrings by `scripts/python_reference.py` (do not edit by hand). "
           "Options by keyword are the CLI's ([docs/cli.md](../cli.md)) with `_` for `-`.", ""]
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue  # an optional part that is not there (e.g. Optuna not installed)
        out += [f"## `{module_name}`", ""]
        head = (inspect.getdoc(module) or "").strip()
        if head:
            out += [head, ""]
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            if inspect.isclass(obj):
                describe_class(obj, f"{module_name}.{name}", out)
            elif callable(obj):
                out += [f"### `{module_name}.{signature(obj, name)}`", ""]
                body = doc_body(obj, name)
                if body:
                    out += [body, ""]
    print("\n".join(out).rstrip() + "\n", end="")


if __name__ == "__main__":
    main()
