#!/usr/bin/env bash
# Exports one public repository per chunked language from bare git mirrors into <out>/<owner+name>/, as the
# polyglot corpus of `bench-chunk` (nothing of them is committed). Usage:
#   bash scripts/bench/export-polyglot-corpus.sh <mirror-root> <out>
# <mirror-root> holds <owner>+<name>/repo bare git directories (e.g. made with `git clone --bare`).
set -euo pipefail
mirrors="$1"; out="$2"
repos=(
  pallets+werkzeug labstack+echo dtolnay+anyhow google+gson jbogard+MediatR square+kotlinpoet com-lihaoyi+fastparse
  Alamofire+Alamofire rack+rack guzzle+guzzle nvm-sh+nvm DaveGamble+cJSON fmtlib+fmt toss+es-toolkit
)
mkdir -p "$out"
for repo in "${repos[@]}"; do
  if [ ! -d "$mirrors/$repo/repo" ]; then echo "missing mirror: $mirrors/$repo/repo" >&2; exit 1; fi
  rm -rf "${out:?}/$repo"; mkdir -p "$out/$repo"
  git --git-dir "$mirrors/$repo/repo" archive HEAD | tar -x -C "$out/$repo"
  echo "$repo $(git --git-dir "$mirrors/$repo/repo" rev-parse HEAD)"
done
