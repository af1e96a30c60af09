#!/usr/bin/env python3
"""The error ids are one list: src/cli/errors.h's CLI_ERRORS X-macro, which
the code uses (fail() takes only its CLI_E_* values), is the same set as the
"id" enum of docs/schema/error.schema.json, in the same (sorted) order, and
each id is named in docs/cli.md's table of error ids.

Usage: check_error_ids.py ERRORS_H ERROR_SCHEMA CLI_MD
Prints one FAIL line per mismatch and "N passed, M failed".
"""
import json
import re
import sys


def main():
    header, schema, cli_md = sys.argv[1:4]
    listed = re.findall(r'X\(([A-Z0-9_]+), "([a-z0-9_]+)"\)', open(header, encoding="utf-8").read())
    enum = json.load(open(schema, encoding="utf-8"))["$defs"]["id"]["enum"]
    doc = open(cli_md, encoding="utf-8").read()
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)

    names = [text for _, text in listed]
    check(len(names) >= 50, "only %d ids read from %s" % (len(names), header))
    for macro, text in listed:
        check(macro == text.upper(), "CLI_E_%s is not the upper case of %s" % (macro, text))
    check(names == sorted(names), "errors.h's list is not sorted by name")
    check(len(set(names)) == len(names), "errors.h lists an id twice")
    for n in sorted(set(names) - set(enum)):
        check(False, "%s is in errors.h, not in the schema's enum" % n)
    for n in sorted(set(enum) - set(names)):
        check(False, "%s is in the schema's enum, not in errors.h" % n)
    check(names == enum, "errors.h and the schema list the ids in another order")
    for n in names:
        check("`%s`" % n in doc, "%s is not named in %s" % (n, cli_md))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
