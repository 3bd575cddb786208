#!/bin/sh
# validate.sh desktop FILE | validate.sh metainfo FILE
# Runs the freedesktop validator for FILE and fails on any complaint. Exits
# 77, which ctest reports as skipped, only when the validator is not
# installed (scripts/bootstrap.sh installs both).
set -u
kind=$1
file=$2

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "SKIP: $1 is not installed (apt-get install $2)"
    exit 77
  fi
}

case $kind in
  desktop)
    need desktop-file-validate desktop-file-utils
    # It exits 0 on hints and some warnings, so any output counts as a failure.
    out=$(desktop-file-validate "$file" 2>&1)
    rc=$?
    [ -n "$out" ] && echo "$out"
    [ $rc -eq 0 ] && [ -z "$out" ] || { echo "FAIL: desktop-file-validate $file"; exit 1; }
    echo "ok: desktop-file-validate $file"
    ;;
  metainfo)
    need appstreamcli appstream
    # --strict fails on warnings and infos too; pedantic hints stay allowed.
    if ! appstreamcli validate --no-net --strict "$file"; then
      echo "FAIL: appstreamcli validate $file"
      exit 1
    fi
    ;;
  *)
    echo "usage: $0 desktop|metainfo FILE" >&2
    exit 2
    ;;
esac
