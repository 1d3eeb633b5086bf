#!/usr/bin/env bash
# `npm run gradescope-zip [-- [--allow-dirty] [<file>]]`: the autograder zip to upload to
# Gradescope (default gradescope.zip): the committed repository without solution/ (grading never
# needs it), with setup.sh and run_autograder at the root of the zip, where Gradescope looks, and
# grader/BUILD.json, the commit it was made from (a report graded from the zip names it).
# A working tree that differs from HEAD in the files the zip holds is refused, naming them, since
# the zip would not hold what is on disk; --allow-dirty packs the working tree as it is instead
# (untracked files too, ignored ones not) and BUILD.json records it as dirty.
set -euo pipefail

usage() {
  echo "Usage: npm run gradescope-zip -- [--allow-dirty] [<file>]   (default gradescope.zip)" >&2
}

ALLOW_DIRTY=0
OUT=""
for arg in "$@"; do
  case "$arg" in
    --allow-dirty) ALLOW_DIRTY=1 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "gradescope-zip: unknown option $arg" >&2; usage; exit 2 ;;
    *)
      if [ -n "$OUT" ]; then echo "gradescope-zip: expected one zip file, got $OUT and $arg" >&2; usage; exit 2; fi
      OUT="$arg" ;;
  esac
done
OUT="${OUT:-gradescope.zip}"
case "$OUT" in /*) ;; *) OUT="${INIT_CWD:-$PWD}/$OUT" ;; esac

if ! top="$(git rev-parse --show-toplevel 2>/dev/null)"; then
  echo "gradescope-zip: expected a git checkout of the grader's repository: the zip is made from its commit" >&2
  exit 2
fi
cd "$top"
commit="$(git rev-parse --verify HEAD)"

# What the zip holds: every file but solution/, the fixtures (the correct ones are answers) and the
# grader's own tests, which grading never runs (and the zip itself, when it is written in here).
paths=(. ':(exclude)solution' ':(exclude)grader/fixtures' ':(exclude)grader/test')
out_rel="$(realpath -m --relative-to="$top" "$OUT")"
case "$out_rel" in ../*) ;; *) paths+=(":(exclude)$out_rel") ;; esac

changed="$(git status --porcelain --untracked-files=all -- "${paths[@]}")"
if [ -n "$changed" ] && [ "$ALLOW_DIRTY" = 0 ]; then
  count="$(printf '%s\n' "$changed" | wc -l)"
  {
    [ "$count" = 1 ] && what="1 file the zip would hold differs" || what="$count files the zip would hold differ"
    echo "gradescope-zip: nothing written: $what from the last commit, and the zip holds the commit:"
    printf '%s\n' "$changed" | head -n 20 | sed 's/^/  /'
    [ "$count" -le 20 ] || echo "  ... and $((count - 20)) more"
    echo "Commit them and run it again, or pack the working tree as it is: npm run gradescope-zip -- --allow-dirty (its BUILD.json then says dirty)."
  } >&2
  exit 1
fi
dirty=false
[ -z "$changed" ] || dirty=true

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
if [ "$ALLOW_DIRTY" = 1 ]; then
  # The working tree as it is: tracked files as they are on disk (deleted ones left out) and untracked ones git does not ignore.
  git ls-files -z --cached --others --exclude-standard -- "${paths[@]}" |
    while IFS= read -r -d '' f; do if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi; done |
    tar --null --no-recursion -T - -cf - | tar -x -C "$staging"
else
  git archive HEAD | tar -x -C "$staging"
  rm -rf "$staging/solution" "$staging/grader/fixtures" "$staging/grader/test"
fi
cp gradescope/setup.sh gradescope/run_autograder "$staging/"
chmod +x "$staging/setup.sh" "$staging/run_autograder"
printf '{\n  "buildVersion": 1,\n  "commit": "%s",\n  "dirty": %s,\n  "madeBy": "npm run gradescope-zip"\n}\n' "$commit" "$dirty" > "$staging/grader/BUILD.json"
rm -f "$OUT"
(cd "$staging" && zip -qr -X "$OUT" .)
note=""
[ "$dirty" = false ] || note=" with the uncommitted changes of the working tree"
echo "wrote $OUT from commit ${commit:0:7}$note: upload it as the autograder of a Gradescope programming assignment"
