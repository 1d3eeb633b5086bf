#!/usr/bin/env bash
# `npm run gradescope-zip [-- <file>]`: the autograder zip to upload to Gradescope (default
# gradescope.zip): the committed repository (the grader, the reference solution it falls back on,
# the rubric), with setup.sh and run_autograder at the root of the zip, where Gradescope looks.
# Commit first: only what HEAD holds goes in.
set -euo pipefail

OUT="${1:-gradescope.zip}"
case "$OUT" in /*) ;; *) OUT="${INIT_CWD:-$PWD}/$OUT" ;; esac
cd "$(git rev-parse --show-toplevel)"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT

git archive HEAD | tar -x -C "$staging"
cp gradescope/setup.sh gradescope/run_autograder "$staging/"
chmod +x "$staging/setup.sh" "$staging/run_autograder"
rm -f "$OUT"
(cd "$staging" && zip -qr -X "$OUT" .)
echo "wrote $OUT: upload it as the autograder of a Gradescope programming assignment"
