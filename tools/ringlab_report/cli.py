# SPDX-License-Identifier: GPL-2.0-only
"""The command line of ringlab-report: subcommands and options, errors as
one line."""

import argparse
import sys

from .ident import version_line
from .parse import EXIT_TOOL, EXIT_USAGE, ReportError, parse_path
from .convert import cmd_check, cmd_csv, cmd_json, cmd_junit, cmd_ktap, cmd_tap, cmd_times
from .text import cmd_text
from .page import cmd_html
from .compare import cmd_compare
from .answers import cmd_answers

# the subcommands that read one log
ONE_LOG = {"check": cmd_check, "tap": cmd_tap, "ktap": cmd_ktap, "junit": cmd_junit,
           "json": cmd_json, "csv": cmd_csv, "html": cmd_html, "text": cmd_text,
           "times": cmd_times}


ALL_RUNS = ("a log with several runs: a run other than the judged one (the last complete "
            "one) that did not pass fails it too")
LAVA = ("LOG is LAVA's own log of a job (lava-run's output, or the job log from the server): "
        "its serial stream, un-escaped and cut at the integrity line, is the log")


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line and exit 2, like every other error here."""

    def error(self, message):
        print("ringlab-report: error: %s: %s (see %s --help)" % (self.prog, message, self.prog),
              file=sys.stderr)
        sys.exit(EXIT_USAGE)


def with_version(p):
    p.add_argument("--version", action="version", version=version_line("ringlab-report"),
                   help="print the version and exit")
    return p


def main(argv, doc):
    """Run the command line `argv`; `doc` is the usage text (the entry
    script's docstring): its first paragraph is the description, the rest
    the epilog of --help."""
    ap = OneLineParser(prog="ringlab-report", description=doc.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=doc.split("\n\n", 1)[1])
    with_version(ap)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="SUBCOMMAND")
    for name, need_out, what in (
            ("check", False, "one line: the verdict and the counts"),
            ("tap", False, "TAP 13"), ("ktap", False, "the KTAP lines alone, cleaned of console noise"),
            ("junit", True, "JUnit XML (one testcase per case, time= from durations)"),
            ("json", False, "the parser's events and the run's summary"),
            ("csv", False, "one row per metric"),
            ("html", True, "the report for reading, one page"),
            ("text", False, "the report for reading, for a terminal")):
        p = with_version(sub.add_parser(name, help=what, description=what))
        p.add_argument("log")
        p.add_argument("-o", "--output", required=need_out)
        p.add_argument("--all-runs", action="store_true", help=ALL_RUNS)
        p.add_argument("--lava", action="store_true", help=LAVA)
    p = with_version(sub.add_parser("times", help="per-case and per-suite durations",
                                    description="per-case and per-suite durations"))
    p.add_argument("log")
    p.add_argument("-o", "--output")
    p.add_argument("--all-runs", action="store_true", help=ALL_RUNS)
    p.add_argument("--lava", action="store_true", help=LAVA)
    p.add_argument("--csv", action="store_true", help="CSV instead of a text table")
    what = "changed verdicts and conclusions first, then significant metric changes"
    p = with_version(sub.add_parser("compare", help=what, description=what))
    p.add_argument("logs", nargs="+")
    p.add_argument("-o", "--output")
    p.add_argument("--csv", action="store_true", help="CSV instead of a text table")
    p.add_argument("--match", metavar="REGEX", help="only metrics whose name matches")
    p.add_argument("--common", action="store_true", help="only metrics every log has")
    p.add_argument("--threshold", type=float, metavar="F",
                   help="only metrics whose headline changed by a factor F or more (e.g. 1.5)")
    what = "the fleet view: one row per log, one column per question"
    p = with_version(sub.add_parser("answers", help=what, description=what))
    p.add_argument("logs", nargs="+")
    p.add_argument("-o", "--output")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--csv", action="store_true", help="CSV instead of a text table")
    g.add_argument("--html", action="store_true", help="one HTML page")
    args = ap.parse_args(argv)
    try:
        if args.cmd in ("compare", "answers"):
            if args.cmd == "compare" and len(args.logs) < 2:
                ap.error("compare needs two or more logs")
            # a second '-' would read an empty standard input
            if args.logs.count("-") > 1:
                ap.error("standard input ('-') can be read once")
            runs = [parse_path(p) for p in args.logs]
            if args.cmd == "compare":
                return cmd_compare(runs, args)
            return cmd_answers(runs, args.logs, args)
        run = parse_path(args.log, lava=args.lava)
        run.all_runs = args.all_runs
        return ONE_LOG[args.cmd](run, args)
    except ReportError as e:
        print("ringlab-report: error: %s" % e, file=sys.stderr)
        return e.code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except (KeyError, TypeError, ValueError) as e:
        # logcheck's JSON without a field this tool needs (an older
        # build/logcheck?): one line, never a traceback
        print("ringlab-report: error: unexpected parser output (%s: %s); rebuild build/logcheck"
              % (type(e).__name__, e), file=sys.stderr)
        return EXIT_TOOL
