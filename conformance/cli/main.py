"""The ``conformance`` command: exit 0 ok/conformant, 1 non-conformant, 2 usage or configuration error."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from conformance.cli import compare as cli_compare
from conformance.cli import draft as cli_draft
from conformance.cli import explain as cli_explain
from conformance.cli import report as cli_report
from conformance.cli import run as cli_run
from conformance.errors import ConformanceError
from conformance.run.packs import use_spec_dirs


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own exit code is 2 too; keep one line
        print(f"conformance: error: {self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="conformance", description="Conformance suite and spec checker for "
                     "Huawei Ascend aclnn operators.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cli_run.add_parsers(sub)
    cli_explain.add_parsers(sub)
    cli_compare.add_parsers(sub)
    cli_report.add_parsers(sub)
    cli_draft.add_parsers(sub)
    for name in SPEC_COMMANDS:  # the commands that read specs take more packs
        sub.choices[name].add_argument("--specs", action="append", metavar="DIR", help=(
            "a directory of spec files to load besides the shipped ones (repeat); they share the "
            "shipped vocabulary"))
    return parser


#: The commands that read operator specs.
SPEC_COMMANDS = ("run", "replay", "explain", "specs", "lint")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        use_spec_dirs(getattr(args, "specs", None) or [])
        return int(args.func(args))
    except ConformanceError as exc:
        print(f"conformance: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("conformance: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
