# shellcheck shell=sh
# lib.sh - sourced by .ci/setup.sh, .ci/setup-tests.sh and .ci/checks/*.sh (POSIX sh, from the
# project's root): install the Debian packages a step needs, only those
# missing, with sudo when not root.
#
#   want PACKAGE [COMMAND]   note PACKAGE unless COMMAND is on PATH (or,
#                            without COMMAND, unless dpkg has it installed)
#   install_wanted STEP      apt-get install what was noted, saying so (after
#                            .ci/prefetch.sh, if running: DMLT_CI_PREFETCH_PID)

missing=""

want() {
  if [ $# -gt 1 ]; then
    command -v "$2" >/dev/null 2>&1 && return 0
  else
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' && return 0
  fi
  missing="$missing $1"
}

install_wanted() {
  [ -n "$missing" ] || return 0
  # .ci/run installs every check's packages in the background
  # (.ci/prefetch.sh) while the first checks build and test: wait for it,
  # then install only what is still missing (it may have failed).
  if [ -n "${DMLT_CI_PREFETCH_PID:-}" ] && kill -0 "$DMLT_CI_PREFETCH_PID" 2>/dev/null; then
    echo "$1: waiting for the packages .ci/prefetch.sh installs" >&2
    while kill -0 "$DMLT_CI_PREFETCH_PID" 2>/dev/null; do sleep 2; done
  fi
  still=""
  for p in $missing; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      still="$still $p"
  done
  missing=$still
  [ -n "$missing" ] || return 0
  echo "$1: installing$missing" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >&2
  missing=""
}
