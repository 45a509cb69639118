# SPDX-License-Identifier: GPL-2.0-only
"""ringlab-report's code (tools/ringlab-report is the command): parse.py
runs build/logcheck --json and arranges its events as a run; convert.py
(check, tap, ktap, junit, json, csv, times), text.py, page.py (html),
compare.py and answers.py (the fleet view) write the outputs; layout.py
is what text and html share, num.py the numbers in field values; cli.py
is the command line."""
