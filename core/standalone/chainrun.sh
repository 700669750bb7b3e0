# The chain runner's fast path: POSIX sh (dash-compatible, set -u safe, no bashisms), no Python.
# Run as `sh <this file> <host> <event> [<id> <timeout> <matcher> <command>]...`, the words of
# chainrun.py. Install writes this file (core/plan/chainsh.py: a header of the host facts from
# core/standalone/protocol.py, generated, then this text) beside the settings file and the Python
# runner, which it hands over to (`--from-sh`) whenever a member's answer must be read; and into
# each of Cline's hook files, before its dispatcher, which it hands over to the same way:
#   - a member timed out, or its exit code is one the table cannot decide alone (a hook error, whose
#     note quotes its stderr; an exit whose meaning depends on stderr's text);
#   - a member printed on stdout an answer sh cannot read exactly (hw_answer: one line of JSON of a shape
#     the protocol table judges alike for every text, exit 0, stderr empty), or a second answer to combine;
#   - a matcher that is not a list of names (a|b, or anchored: ^(a|b)$, ^(?:a|b)$, ^a$; on Cline a list
#     of tool names, tested on its call's toolName), or a payload whose field sh cannot read as the
#     Python runner's json does (a nested field, an escape in it, anything Python's strict scanner
#     refuses: then Python runs every member), or a payload past 64 KiB.
# The Python runner then judges that member from the files it left here and runs the rest; the
# members already run do not run again, and their stderr comes first, as the Python runner does.
# Each member: the host's shell, the payload file on stdin, files of its own for stdout and stderr.
# A member runs as `bash -c MEMBER` runs it alone: the same exit code and stderr (shell errors too).
# Timeouts: a ticker (one background process per chain, naps of at most 0.1 s, reading the kernel's
# uptime in hundredths; where sleep takes whole seconds only, a second) kills a member at its
# timeout, with every descendant `ps` finds then (a POSIX shell cannot give a member a process group
# without a terminal; what left the member's tree before the timeout is not found, where the Python
# runner kills its group).
set -u
hw_host=${1-} hw_event=${2-}  # hw_py, the Python runner it hands over to, is set above (chainsh.py)

hw_python() {  # the Python runner, from the start: it reads the host's stdin itself
  hw_have_py
  exec python3 -S "$hw_py" "$@"
}

hw_have_py() {  # without it a hand-over is python3's exit 2, a block: go on, as the registration does without this file
  [ -f "$hw_py" ] || { echo "hookweave: chain runner missing, the rest of its hooks did not run, see hooks verify" >&2; exit 0; }
}

[ $# -ge 2 ] && [ $(( ($# - 2) % 4 )) -eq 0 ] || hw_python "$@"
hw_facts "$hw_host" "$hw_event" || hw_python "$@"  # sets hw_shell, hw_field, hw_E, hw_T (the header)
command -v "$hw_shell" >/dev/null 2>&1 || hw_shell=/bin/sh  # as chainproc falls back
shift 2

hw_clean() {
  hw_rm="$hw_base.in $hw_base.n $hw_base.s $hw_base.t" hw_j=0
  while [ "$hw_j" -lt "$hw_count" ]; do hw_rm="$hw_rm $hw_base.o$hw_j $hw_base.e$hw_j"; hw_j=$((hw_j + 1)); done
  LC_ALL=C rm -f $hw_rm 2>/dev/null  # the names hold no blank: $TMPDIR with one is passed over below
}

# The scratch files: created 0600 (umask 077 while they are made, then the host's again, which the
# members get) under a name no one can guess (a random UUID the kernel gives, without a fork; mktemp
# elsewhere), never taken over (set -C), so nobody else reads the payload or plants a FIFO there. A
# folder where they cannot be made or written (no such folder, read-only, a full disk: the state
# file's first line is written before the payload, as a probe) is passed over for the next.
# The payload is copied by dd, which says how many bytes it copied (in .n): a matcher's field is then
# read by the shell itself where that count proves the read exact (hw_small). Every program the runner
# starts itself runs with LC_ALL=C: a program that loads a UTF-8 locale opens a dozen files first
# (cat: 4.7 -> 1.5 ms here under load); the members get the host's environment as it is.
# All of it in this shell, no subshell: a command it waits for starts by vfork, where a subshell is a
# fork of the whole shell (0.3 ms per event here under load, issue 38); the host's umask comes from
# /proc (Linux 4.7 and later), else from umask itself (a fork).
hw_um= hw_l=
{ read -r hw_l && read -r hw_l hw_um; } 2>/dev/null </proc/self/status  # "Name: sh", then "Umask: 0022"
case $hw_l:$hw_um in Umask::[0-7][0-7][0-7][0-7]) ;; *) hw_um=$(umask) ;; esac

hw_made() {  # the scratch files of $hw_try, each made here (set -C): 0, else 1
  printf -- '- - 0 -\n' >"$hw_try.s" && true >"$hw_try.t" && true >"$hw_try.n" || return 1
  hw_k=0
  while [ "$hw_k" -lt "$hw_count" ]; do
    true >"$hw_try.o$hw_k" && true >"$hw_try.e$hw_k" || return 1
    hw_k=$((hw_k + 1))
  done
  true >"$hw_try.in"
}

hw_count=$(($# / 4))
hw_base= hw_bad=
for hw_dir in ${TMPDIR:+"$TMPDIR"} /dev/shm /tmp /var/tmp; do  # /dev/shm: in memory, a file there costs less
  case $hw_dir in *[!A-Za-z0-9_./-]*) continue ;; esac  # the names go unquoted to rm and cat
  { read -r hw_r </proc/sys/kernel/random/uuid || hw_r=$(mktemp -u XXXXXXXXXXXX); } 2>/dev/null
  case $hw_r in ''|*[!A-Za-z0-9-]*) continue ;; esac
  hw_try="$hw_dir/.hookweave-chain-$$-$hw_r"
  umask 077; set -C
  hw_made 2>/dev/null; hw_bad=$?
  set +C; umask "$hw_um"
  hw_base=$hw_try
  if [ "$hw_bad" -eq 0 ]; then
    { LC_ALL=C dd bs=65536 >|"$hw_try.in" 2>|"$hw_try.n"; } 2>/dev/null && { hw_bad=; break; }
    hw_bad=$?; break  # dd failed (the disk filled up while it wrote): what was read is here
  fi
  hw_clean; hw_base=
done
if [ -z "$hw_base" ] || [ -n "${hw_bad-}" ]; then  # no folder took them, or the payload could not be kept:
  printf 'hookweave chain: no scratch file could be written in %s; the Python runner runs the members\n' \
    "${TMPDIR:-/tmp}" >&2  # said, never silent (Python's scratch files look further)
  [ -z "$hw_base" ] || exec 0<"$hw_base.in"
  [ -z "$hw_base" ] || hw_clean
  hw_python "$hw_host" "$hw_event" "$@"
fi

# How members start. Where the shell is dash or busybox's ash and there is /proc (Linux), in the
# foreground (hw_fg): the shell starts a command it waits for by vfork, where `&` forks the whole
# shell (1 ms per event of 3 members here under load, issue 38). Such a shell says a signal that
# ended a member ("Killed") on the member's stderr file, which the host's shell, handing its process
# over, never writes: a member past 128 goes to Python, which drops that line (chainproc.resume).
# A host that stops the chain ends this shell at once (no trap: one waits for the member first), and
# the ticker ends the member: the runner's child but itself, or once the runner is gone, what holds
# the payload file as its stdin (the member and what it started). Elsewhere (bash as sh, which
# forks either way) in the background, and `wait`.
hw_fg=
[ -n "${BASH_VERSION-}${ZSH_VERSION-}${KSH_VERSION-}${YASH_VERSION-}" ] || [ ! -d /proc/self/fd ] || hw_fg=1
hw_runner=$$

hw_table() {  # hw_ps: "pid ppid" a line, of every process: ps, else /proc where there is no ps (a slim
  hw_ps=$(LC_ALL=C ps -A -o pid= -o ppid= 2>/dev/null) && return  # container): a parent follows the
  [ -d /proc/self ] || return 1                                    # name's last ")" in a stat file
  hw_ps=
  for hw_p in /proc/[0-9]*; do
    read -r hw_pp 2>/dev/null <"$hw_p/stat" || continue
    hw_pp=${hw_pp##*) } hw_pp=${hw_pp#* }
    hw_ps="$hw_ps${hw_p#/proc/} ${hw_pp%% *}
"
  done
}

hw_descendants() {  # pids: them and every process below them, stopped, as one list
  hw_all=" $* " hw_new=1
  kill -STOP "$@" 2>/dev/null
  while [ -n "$hw_new" ]; do
    hw_new=
    hw_table || break
    while read -r hw_p hw_pp; do
      case $hw_all in *" $hw_pp "*) case $hw_all in *" $hw_p "*) ;; *)
        hw_all="$hw_all$hw_p " hw_new=1; kill -STOP "$hw_p" 2>/dev/null ;; esac ;; esac
    done <<EOF
$hw_ps
EOF
  done
}

hw_end() {  # pids: the member and what it started, killed
  hw_descendants "$@"
  kill -KILL $hw_all 2>/dev/null
}

hw_target() {  # $1 the state's member, $2 its pid or + (hw_fg): 0 with it stopped (hw_found), 1 when it
  if [ "$2" != + ]; then  # ended, or another member runs now (the state is read again once the processes
    hw_found=$2           # found are stopped: the runner cannot go on to the next member meanwhile)
    kill -STOP "$2" 2>/dev/null
    return
  fi
  hw_found=
  if kill -0 "$hw_runner" 2>/dev/null; then  # the runner's child, but this ticker (its pid: $$ is the runner's)
    [ -n "$hw_me" ] || read -r hw_me hw_rest 2>/dev/null </proc/self/stat
    hw_table
    while read -r hw_p hw_pp; do
      [ "$hw_pp" != "$hw_runner" ] || [ "$hw_p" = "$hw_me" ] || hw_found="$hw_found $hw_p"
    done <<EOF
$hw_ps
EOF
  else  # the runner is gone, the member's parent with it: by its stdin (what closed it is not found)
    for hw_p in /proc/[0-9]*; do
      ! [ "$hw_p/fd/0" -ef "$hw_base.in" ] || hw_found="$hw_found ${hw_p#/proc/}"
    done
  fi
  [ -n "$hw_found" ] || return 1
  kill -STOP $hw_found 2>/dev/null
  read -r hw_y hw_rest <"$hw_base.s" && [ "$hw_y" = "$1" ] && return
  kill -CONT $hw_found 2>/dev/null
  return 1
}

hw_clock() {  # hw_now: centiseconds, from the kernel's uptime (a read, no fork), else the ticker's own count
  if read -r hw_u hw_idle 2>/dev/null </proc/uptime; then hw_now=${hw_u%.*}${hw_u#*.}; else hw_now=-; fi
}

hw_tick() {  # the ticker: kills the member the state file names once its timeout has passed (checked
  hw_last= hw_t0= hw_own=0 hw_nap=10 hw_me=  # at most 0.1 s apart, and exactly at its end); when the runner
  while :; do                          # is gone, removes the scratch files (unless Python took them over)
    case $hw_nap in ?) hw_nap=0$hw_nap ;; esac  # a nap first: most chains are over before it ends
    LC_ALL=C sleep "0.$hw_nap" 2>/dev/null || { LC_ALL=C sleep 1; hw_own=$((hw_own + 100 - ${hw_nap#0})); }  # whole seconds only
    hw_own=$((hw_own + ${hw_nap#0}))
    read -r hw_x <"$hw_base.t" || hw_x=
    [ "$hw_x" != python ] || exit 0
    if ! kill -0 "$hw_runner" 2>/dev/null; then  # the runner is gone (the host stopped it): its member too
      ! read -r hw_idx hw_pid hw_rest <"$hw_base.s" || [ "$hw_idx" = - ] || ! hw_target "$hw_idx" "$hw_pid" ||
        hw_end $hw_found
      hw_clean; exit 0
    fi
    hw_nap=10
    if read -r hw_idx hw_pid hw_lim hw_st <"$hw_base.s" && [ "$hw_idx" != - ] && [ "$hw_lim" -gt 0 ]; then
      hw_clock
      [ "$hw_now" != - ] || hw_now=$hw_own hw_st=-
      if [ "$hw_idx" != "$hw_last" ]; then
        hw_last=$hw_idx hw_t0=$hw_st
        [ "$hw_t0" != - ] || hw_t0=$hw_now
      fi
      hw_left=$((hw_t0 + hw_lim - hw_now))
      if [ "$hw_left" -le 0 ]; then
        if [ "$hw_x" != "$hw_idx" ] && hw_target "$hw_idx" "$hw_pid"; then
          printf '%s\n' "$hw_idx" >|"$hw_base.t"
          hw_end $hw_found
        fi
      elif [ "$hw_left" -lt 10 ]; then
        hw_nap=$hw_left
      fi
    fi
  done
}

hw_seconds() {  # $1 a timeout word -> hw_lim: centiseconds to wait, rounded up, 0 none of ours
  case $1 in       # (chainproc._seconds), -1 a word only Python reads (inf, 1e3, -5)
    ''|.|*[!0-9.]*|*.*.*) hw_lim=-1; return ;;
  esac
  hw_sw=${1%%.*} hw_sf=
  case $1 in *.*) hw_sf=${1#*.} ;; esac
  hw_sw=${hw_sw#"${hw_sw%%[!0]*}"}
  [ ${#hw_sw} -le 9 ] || { hw_lim=0; return; }  # past a billion seconds: no timeout of ours
  hw_cs=${hw_sf%"${hw_sf#??}"} hw_rest=${hw_sf#??}
  [ ${#hw_sf} -ge 2 ] || { hw_cs=${hw_sf}0 hw_cs=${hw_cs%"${hw_cs#??}"} hw_rest=; }
  hw_cs=${hw_cs#0}
  hw_lim=$(( ${hw_sw:-0} * 100 + ${hw_cs:-0} ))
  case $hw_rest in *[1-9]*) hw_lim=$((hw_lim + 1)) ;; esac
}

hw_last() {  # $1 the member just run, then the members' words: 0 when no later member's matcher takes
  hw_j=$(($1 + 1))  # this payload (1 when one may, or only Python can tell)
  while [ "$hw_j" -lt "$hw_count" ]; do
    eval "hw_lm=\${$((hw_j * 4 + 4))}"
    [ -n "$hw_lm" ] || return 1
    hw_matches "$hw_lm"
    [ $? -eq 1 ] || return 1
    hw_j=$((hw_j + 1))
  done
}

hw_act() {  # $1 table, $2 exit code -> hw_v: a (allow), b (block) or h (Python decides)
  case $1 in *" $2="*) hw_v=${1#*" $2="} ;; *) hw_v=${1#*" *="} ;; esac
  hw_v=${hw_v%% *}
}

hw_text() {  # whether $1 holds a visible ASCII character (text under every host's trim), each named:
  while IFS= read -r hw_l || [ -n "$hw_l" ]; do  # [:punct:] in a UTF-8 locale (bash as sh) takes U+00A0
    case $hw_l in *[abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\!\"\#\$%\&\'\(\)\*+,./:\;\<=\>?@\[\\\]^_\`{\|}~-]*) return 0 ;; esac
  done <"$1"
  return 1
}

hw_stop() {  # the host stops the chain: the running member and its tree go too
  [ -z "${hw_pid-}" ] || hw_end "$hw_pid"  # the ticker removes the scratch files at its next tick
  exit $((128 + $1))
}
if [ -z "$hw_fg" ]; then
  trap 'hw_stop 15' TERM
  trap 'hw_stop 2' INT
  trap 'hw_stop 1' HUP
fi

hw_plain() {  # $1 a member's command: 0 when it is one simple command of plain words, which the
  # host's shell would only split, expand and start: letters, digits, _./:=@%+,#- and blanks, quotes,
  # $NAME and ${NAME} (no name bash sets itself); no redirection, pipe, list, glob, ~ or backslash
  case $hw_shell in sh|dash|bash|/bin/sh|/bin/dash|/bin/bash|/usr/bin/bash) ;; *) return 1 ;; esac
  case $1 in
    *[!A-Za-z0-9_./:=@%+,#\ \"\'\$\{\}-]*|*\$[!A-Za-z{]*|*\$|\{*|*[!$]\{*) return 1 ;;
  esac
  hw_c=$1
  while :; do
    case $hw_c in
      *'$'*) hw_c=${hw_c#*'$'} ;;
      *) return 0 ;;
    esac
    case $hw_c in
      \{*) hw_c=${hw_c#?}; hw_nm=${hw_c%%[!A-Za-z0-9_]*}
           case $hw_c in "$hw_nm"\}*) hw_c=${hw_c#"$hw_nm"?} ;; *) return 1 ;; esac ;;
      *) hw_nm=${hw_c%%[!A-Za-z0-9_]*} ;;
    esac
    case $hw_nm in ''|BASH*|RANDOM|SRANDOM|SECONDS|LINENO|EPOCH*|HOSTNAME|HOSTTYPE|OSTYPE|MACHTYPE|UID|EUID|GROUPS|\
      SHLVL|SHELLOPTS|PIPESTATUS|FUNCNAME|HISTCMD|DIRSTACK|COLUMNS|LINES|PS4|IFS) return 1 ;;
    esac
  done
}

hw_program() {  # $1 the program a plain command starts: 0 when exec'ing it here does what the host's
  # shell does: a file found as that shell finds it, and one the kernel starts itself (a shell runs a
  # script without #! as a script of its own: bash and dash differ), so an interpreter or a #! script
  case $1 in
    */*) hw_f=$1 ;;
    ''|*=*) return 1 ;;
    *) hw_f= hw_r=${PATH-}:
       [ -n "${PATH-}" ] || return 1
       while [ -n "$hw_r" ]; do
         hw_d=${hw_r%%:*} hw_r=${hw_r#*:}
         if [ -f "${hw_d:-.}/$1" ] && [ -x "${hw_d:-.}/$1" ]; then hw_f=${hw_d:-.}/$1; break; fi
       done ;;
  esac
  [ -f "$hw_f" ] && [ -x "$hw_f" ] || return 1
  case ${hw_f##*/} in
    python|python3|python3.[0-9]|python3.[0-9][0-9]|node|bun|deno|uv|uvx|npx|bunx|env|sh|dash|bash|ruby|perl|php|jq) return 0 ;;
    *.sh|*.bash|*.py|*.js|*.mjs|*.cjs|*.ts|*.rb|*.pl)
      hw_l=; IFS= read -r hw_l 2>/dev/null <"$hw_f"
      case $hw_l in '#!'*) ;; *) return 1 ;; esac
      hw_l=${hw_l#??}  # its interpreter must be a file that runs: a missing one, or a CR after it (a
      hw_l=${hw_l#"${hw_l%%[!\ \	]*}"}  # CRLF script), is an error only the shell says as the host reads it
      hw_l=${hw_l%%[\ \	]*}
      case $hw_l in /*) ;; *) return 1 ;; esac
      case $hw_l in *[!A-Za-z0-9_./+-]*) return 1 ;; esac
      [ -f "$hw_l" ] && [ -x "$hw_l" ] && return 0 ;;
  esac
  return 1
}

hw_start() {  # $1 exec (a subshell, which becomes the member) or command (hw_fg: this shell, which waits for
  hw_how=$1 hw_cmd=$2  # it), $2 a member's command: a plain one starts its program itself, as the host's
  if hw_plain "$hw_cmd"; then  # shell would (bash takes a millisecond to start); else that shell
    set +u
    if command eval "set -- $hw_cmd" 2>/dev/null; then  # (an unbalanced quote: the shell says it)
      set -u
      case ${1-} in true|false|:) "$@"; return ;; esac
      [ $# -eq 0 ] || ! hw_program "$1" || { $hw_how "$@"; return; }
    fi
    set -u
  fi
  $hw_how "$hw_shell" -c "$hw_cmd"
}

(exec </dev/null >/dev/null 2>&1; hw_tick) &  # exec: a redirection of the call would keep copies of the host's pipes open

hw_handoff() {  # $1 members done, $2 exit code or -, $3 timed out (0 or 1; s after it: hw_fg); then the members' words
  hw_have_py  # before the ticker hears of Python: it removes the scratch files once this shell is gone
  printf 'python\n' >|"$hw_base.t"
  hw_done=$1 hw_code=$2 hw_timed=$3
  shift 3
  exec python3 -S "$hw_py" --from-sh "$hw_done" "$hw_code" "$hw_timed${hw_fg:+s}" "$hw_base" -- \
    "$hw_host" "$hw_event" "$@" <"$hw_base.in"
}

hw_members() {  # $1 the first member to run (those before it ran), then the members' words: exits, but for
  hw_from=$1 hw_i=0 hw_n=0      # an answer sh may read itself (3: member hw_i's, hw_answer below), or
  shift                         # 4: a matcher to test before any member runs (hw_matches, below too)
  if [ -z "$hw_reader" ]; then  # (one case a word, the word's place in its member kept in hw_n: no sum)
    for hw_w do
      case $hw_n$hw_w in 2) hw_n=3 ;; 2*) return 4 ;; 0*) hw_n=1 ;; 1*) hw_n=2 ;; *) hw_n=0 ;; esac
    done
    hw_n=0
  fi
  for hw_w in "$@"; do
  case $hw_n in
    0) hw_id=$hw_w hw_n=1 ;;
    1) hw_to=$hw_w hw_n=2 ;;
    2) hw_mt=$hw_w hw_n=3 ;;
    *) hw_n=0
       if [ "$hw_i" -lt "$hw_from" ]; then hw_i=$((hw_i + 1)); continue; fi
       hw_run=0
       [ -z "$hw_mt" ] || hw_matches "$hw_mt" || hw_run=$?
       [ "$hw_run" -ne 2 ] || hw_handoff "$hw_i" - 0 "$@"
       if [ "$hw_run" -eq 0 ]; then
         hw_seconds "$hw_to"
         [ "$hw_lim" -ge 0 ] || hw_handoff "$hw_i" - 0 "$@"
         hw_clock
         hw_code=0
         if [ -n "$hw_fg" ]; then
           printf '%s + %s %s\n' "$hw_i" "$hw_lim" "$hw_now" >|"$hw_base.s"
           { hw_start command "$hw_w" <"$hw_base.in" >|"$hw_base.o$hw_i" 2>|"$hw_base.e$hw_i"; } 2>/dev/null ||
             hw_code=$?
         else
           hw_start exec "$hw_w" <"$hw_base.in" >|"$hw_base.o$hw_i" 2>|"$hw_base.e$hw_i" &
           hw_pid=$!
           printf '%s %s %s %s\n' "$hw_i" "$hw_pid" "$hw_lim" "$hw_now" >|"$hw_base.s"
           wait "$hw_pid" 2>/dev/null || hw_code=$?  # (dash says "Killed" of a member the ticker ended)
           hw_pid=
         fi
         printf -- '- - 0 -\n' >|"$hw_base.s"
         read -r hw_t <"$hw_base.t" || hw_t=
         [ "$hw_t" != "$hw_i" ] || hw_handoff "$hw_i" 137 1 "$@"
         [ -z "$hw_fg" ] || [ "$hw_code" -le 128 ] || hw_handoff "$hw_i" "$hw_code" 0 "$@"  # its shell's word after it
         if [ "$hw_host" != cline ] && [ -z "$hw_errs$hw_kept" ] && hw_last "$hw_i" "$@"; then  # the host reads
           [ ! -s "$hw_base.e$hw_i" ] || LC_ALL=C cat "$hw_base.e$hw_i" >&2  # it alone (chainrun.py's _last)
           [ ! -s "$hw_base.o$hw_i" ] || LC_ALL=C cat "$hw_base.o$hw_i"
           exit "$hw_code"
         fi
         if [ -s "$hw_base.o$hw_i" ]; then  # an answer: sh reads the shapes the protocol table gives it
           [ "$hw_host" != cline ] && [ "$hw_code" -eq 0 ] && [ ! -s "$hw_base.e$hw_i" ] || hw_handoff "$hw_i" "$hw_code" 0 "$@"
           return 3
         elif [ -s "$hw_base.e$hw_i" ]; then
           hw_text "$hw_base.e$hw_i" || hw_handoff "$hw_i" "$hw_code" 0 "$@"
           hw_act "$hw_T" "$hw_code"
           hw_errs="$hw_errs $hw_base.e$hw_i"
         else
           hw_act "$hw_E" "$hw_code"
         fi
         case $hw_v in
           a) ;;
           b) [ ! -s "$hw_base.e$hw_i" ] || LC_ALL=C cat "$hw_base.e$hw_i" >&2
              exit "$hw_code" ;;
           *) hw_handoff "$hw_i" "$hw_code" 0 "$@" ;;
         esac
       fi
       hw_i=$((hw_i + 1)) ;;
  esac
  done
  [ -z "$hw_errs" ] || LC_ALL=C cat $hw_errs >&2
  printf '%s' "$hw_kept"  # the one answer kept, as chainanswer.answer writes it
  exit 0  # the ticker removes the scratch files at its next tick
}

hw_errs= hw_kept= hw_reader=
hw_members 0 "$@"
hw_rc=$?
# Past here only when a member has a matcher to test (4) or answered on stdout (3): the shell reads
# (parses) a script's commands as it comes to them, so the matchers' reader, the answers' table and
# its reader below cost the events that need none of them nothing (a third of the runner's parse);
# and the scan that proves a payload JSON (hw_read_query) is parsed only when the field cannot be cut
# out of it and proven without it (hw_fast, hw_sure).

hw_query= hw_read= hw_sm= hw_mm= hw_lf='
'
hw_small() {  # hw_s: the payload, read by the shell itself (no tr to start) where that is exact: dd
  # copied at most 1 KiB (the shell reads a byte per system call), no line of it holds a control
  # character, and the shell read as many bytes as dd copied (it drops a NUL; where sh is bash in a
  # UTF-8 locale, ${#} counts a multibyte character as one: both read short, and tr reads them)
  hw_size= hw_l=
  { while IFS= read -r hw_l; do hw_size=$hw_l; done; [ -z "$hw_l" ] || hw_size=$hw_l; } <"$hw_base.n"
  hw_size=${hw_size%% *}  # "107 bytes copied, ..." (GNU, BSD and busybox dd alike, the last line)
  case $hw_size in ''|*[!0-9]*|?????*) return 1 ;; esac
  [ "$hw_size" -le 1024 ] || return 1
  hw_s= hw_l=
  while IFS= read -r hw_l; do
    case $hw_l in *[[:cntrl:]]*) return 1 ;; esac
    hw_s=$hw_s$hw_l$hw_lf
  done <"$hw_base.in"
  case $hw_l in *[[:cntrl:]]*) return 1 ;; esac
  hw_s=$hw_s$hw_l
  [ ${#hw_s} -eq "$hw_size" ]
}

hw_fast() {  # hw_query: the payload's top-level $hw_field, cut out of it without the scan below, where
  # the text proves it is that field should the payload be a JSON object; else 1 (hw_sm: 1 when the shell
  # read the payload, hw_s, 0 when it could not). Proven: the field's text, "name", is in the payload
  # once, after a { that starts it and text with no {, [, ], } or backslash (so no quote before it is
  # escaped, the quote before name opens a string: a quote closing one could not be followed by a
  # letter, and it is a key of the top object: after { or a comma, at depth 1); its value is a string
  # with no backslash; no \u anywhere (the only escape that could spell the name in another key).
  # Whether the payload is JSON at all is not read here: hw_sure holds the field to the members'
  # matchers, and where each takes it, every member runs as Python runs every member for a payload
  # that is no JSON object; a matcher that would skip a member needs the scan's proof (hw_read_query).
  case $hw_host:$hw_field in cline:*|*:|*:-|*:*[!A-Za-z0-9_]*) return 1 ;; esac
  hw_small || { hw_sm=0; return 1; }
  hw_sm=1 hw_b=" $hw_lf" hw_q="\"$hw_field\""  # (quoted in the patterns, each character would be tried
  case $hw_s in *\\u*|*$hw_q*$hw_q*) return 1 ;; esac  # at every place: a " from $hw_q skips to the next)
  hw_p=${hw_s%%$hw_q*}
  case $hw_p in [!{]*|?*{*|*\[*|*\\*) return 1 ;; esac
  case $- in *f*) hw_glob= ;; *) hw_glob=1; set -f ;; esac
  hw_ifs=$IFS IFS='"'
  set -- $hw_p
  hw_k=$#
  set -- $hw_s
  IFS=$hw_ifs
  [ -z "$hw_glob" ] || set +f
  [ $# -ge $((hw_k + 4)) ] || return 1  # the name, what is between it and its value, the value, a quote after it
  eval "hw_o=\${$hw_k} hw_n=\${$((hw_k + 1))} hw_c=\${$((hw_k + 2))} hw_v=\${$((hw_k + 3))}"
  [ "$hw_n" = "$hw_field" ] || return 1
  hw_o=${hw_o%"${hw_o##*[!$hw_b]}"}
  case $hw_o in *,|'{') ;; *) return 1 ;; esac
  case $hw_c in *:*:*|*[!:$hw_b]*) return 1 ;; *:*) ;; *) return 1 ;; esac
  case $hw_v in *\\*) return 1 ;; esac
  hw_query=$hw_v hw_read=1
}

hw_sure() {  # the members' words: 0 when no matcher skips a member for hw_query (each runs it, or hands over)
  while [ $# -gt 0 ]; do
    [ -z "$3" ] || { hw_matches "$3"; [ $? -ne 1 ] || return 1; }
    shift 4
  done
}

hw_has() {  # $1 matcher (plain names), $2 query, $3 exact|part|some: whether a name is it or in it
  hw_m="$1|"
  while [ -n "$hw_m" ]; do
    hw_t=${hw_m%%|*} hw_m=${hw_m#*|}
    case $3:$hw_t in
      exact:*) [ "$hw_t" != "$2" ] || return 0 ;;
      some:) ;;  # Qwen drops the empty names of a list
      *) case $2 in *"$hw_t"*) return 0 ;; esac ;;
    esac
  done
  return 1
}

hw_matches() {  # $1 matcher: 0 runs, 1 skips, 2 needs Python; the last answer read kept (hw_mm, hw_mr):
  [ "$1" != "$hw_mm" ] || return "$hw_mr"  # a bundle's hooks often share a matcher, tested again by hw_last
  hw_match "$1"
  hw_mr=$?
  [ -z "$hw_read" ] || hw_mm=$1
  return "$hw_mr"
}

hw_match() {
  case $hw_host:$1 in
    *:) return 0 ;;
    cline:*[!A-Za-z0-9_\|]*) return 2 ;;  # Cline's dispatcher takes "*" or any other word as a tool name
    cline:*) if [ -z "$hw_read" ]; then hw_read_query || return 2; hw_read=1; fi
             [ -n "$hw_qs" ] || return 0  # no call, or no toolName in it: every member runs
             hw_has "$1" "$hw_query" exact; return ;;  # its tool is one of the names split on "|"
    *:'*') return 0 ;;
  esac
  hw_nl=$1 hw_mode=
  case $1 in  # a regex that is exactly a list of names, anchored (^(a|b)$): the name equals one of them
    '^'*'$') hw_exact "$1" || return 2 ;;
    *[!A-Za-z0-9_\|]*) return 2 ;;
  esac
  [ -n "$hw_field" ] || return 0
  [ "$hw_field" != - ] || return 2
  if [ -z "$hw_read" ]; then hw_read_query || return 2; hw_read=1; fi
  case $hw_host in
    claude|cursor|copilot) hw_has "$hw_nl" "$hw_query" exact ;;
    gemini) case $hw_event in BeforeTool|AfterTool) hw_has "$hw_nl" "$hw_query" "${hw_mode:-part}" ;;
              *) [ "$1" = "$hw_query" ] ;; esac ;;
    codex) hw_has "$hw_nl" "$hw_query" "${hw_mode:-part}" || { [ "$hw_query" = apply_patch ] &&
             { hw_has "$hw_nl" Write "${hw_mode:-part}" || hw_has "$hw_nl" Edit "${hw_mode:-part}"; }; } ;;
    qwen) [ "$1" = "$hw_query" ] || hw_has "$hw_nl" "$hw_query" "${hw_mode:-some}" ;;
    factory) [ "$1" = "$hw_query" ] || hw_has "$hw_nl" "$hw_query" "${hw_mode:-part}" ;;
    auggie) hw_has "$hw_nl" "$hw_query" "${hw_mode:-part}" ;;  # a regex search only (a plain list: the same)
    *) return 2 ;;
  esac
}

hw_exact() {  # $1 ^(a|b)$, ^(?:a|b)$ or ^a$ -> hw_nl the names, hw_mode exact; 1 for any other regex.
  hw_nl=${1#^} hw_nl=${hw_nl%?}  # Names are letters, digits and _, none empty: each is itself in every
  case $hw_nl in                 # regex dialect, and a name read here has no newline for $ to stop before
    '(?:'*')') hw_nl=${hw_nl#???} hw_nl=${hw_nl%?} ;;
    '('*')') hw_nl=${hw_nl#?} hw_nl=${hw_nl%?} ;;
    *'|'*) return 1 ;;  # ^a|b$ is ^a or b$, no list
  esac
  case $hw_nl in ''|*[!A-Za-z0-9_\|]*|'|'*|*'|'|*'||'*) return 1 ;; esac
  hw_mode=exact
}

hw_reader=1
if [ "$hw_rc" -eq 4 ] && hw_fast && hw_sure "$@"; then hw_members 0 "$@"; hw_rc=$?; fi

hw_read_query() {  # the payload's top-level $hw_field (the last, as Python's json reads a duplicate); 1 when
  # sh cannot tell it as the Python runner would: the payload must be one JSON object as Python's
  # strict scanner reads it (a trailing comma, a NUL, a raw control character in a string, a number it
  # refuses: Python runs every member, so hand over), at most 64 KiB and nested at most 200 deep
  if [ "$hw_sm" = 1 ] || { [ -z "$hw_sm" ] && hw_small; }; then  # (hw_fast's read serves once: the scan
    hw_sm= hw_ws=" $hw_lf" hw_tnr=$hw_lf  # eats hw_s) no tab, CR or other control character in it (hw_small)
  else
    hw_s=$(printf ' \t\n\r|\t\n\r|\001\002\003\004\005\006\007\010\013\014\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\377|'
           LC_ALL=C exec tr '\000' '\377' <"$hw_base.in") || return 1  # (trailing newlines dropped: blanks to JSON)
    hw_ws=${hw_s%%|*} hw_s=${hw_s#*|}
    hw_tnr=${hw_s%%|*} hw_s=${hw_s#*|}
    hw_cc=${hw_s%%|*} hw_s=${hw_s#*|}
    [ ${#hw_s} -le 65536 ] || return 1
    case $hw_s in *[$hw_cc]*) return 1 ;; esac  # never JSON, anywhere (a NUL is read as \377)
  fi
  hw_stack= hw_want=v hw_key= hw_query= hw_in= hw_pk= hw_pt= hw_ok= hw_ot=
  hw_s=${hw_s#"${hw_s%%[!$hw_ws]*}"}
  case $hw_s in '{'*) ;; *) return 1 ;; esac
  case $hw_s in *'"') return 1 ;; esac  # (an object ends in }; a last quote would make no field)
  # Split at the quotes once (the fields: outside a string, inside one, outside, ...): each step then
  # copies a field, not the rest of the payload
  case $- in *f*) hw_glob= ;; *) hw_glob=1; set -f ;; esac
  hw_ifs=$IFS IFS='"'
  set -- $hw_s
  IFS=$hw_ifs
  [ -z "$hw_glob" ] || set +f
  hw_instr= hw_str= hw_was=
  for hw_f do
    hw_was=$hw_instr
    case $hw_instr$hw_want$hw_f in  # the usual fields in one step each: a string with no escape or control
      1*) case $hw_host:$hw_str$hw_f in cline:*|*[\\$hw_tnr]*) ;; *)  # character (off Cline), a : or a ,
            hw_instr=  # (the general steps below do the same, in some twenty commands a field)
            case $hw_want:$hw_stack in
              [kK]:?) hw_key=$hw_f hw_want=: ;;
              [kK]:*) hw_want=: ;;
              *:?) [ "$hw_key" != "$hw_field" ] || hw_query=$hw_f; hw_want=c ;;
              *) hw_want=c ;;
            esac
            continue ;;
          esac ;;
      ::|':: ') hw_want=v hw_instr=1; continue ;;
      c,|'c, ') case $hw_stack in *'{') hw_want=K ;; *) hw_want=v ;; esac; hw_instr=1; continue ;;
    esac
    case $hw_instr in x) return 1 ;; 1)  # a string where none may be; a string's text, up to a quote: an
      hw_str=$hw_str$hw_f  # escaped one (an odd run of backslashes before it) goes on with the next field
      hw_b=${hw_f##*[!\\]}
      [ $((${#hw_b} % 2)) -eq 0 ] || { hw_str=$hw_str\"; continue; }
      hw_instr=
      case $hw_str in *[$hw_tnr]*) return 1 ;; esac
      hw_esc= hw_r=$hw_str
      while :; do  # every escape one JSON has
        case $hw_r in *\\*) hw_r=${hw_r#*\\} hw_esc=1 ;; *) break ;; esac
        case $hw_r in
          [\"\\/bfnrt]*) hw_r=${hw_r#?} ;;
          u[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]*) hw_r=${hw_r#?????} ;;
          *) return 1 ;;
        esac
      done
      case $hw_want in
        [kK]) [ ${#hw_stack} -gt 1 ] || [ -z "$hw_esc" ] || return 1  # a top-level key sh cannot read
              if [ ${#hw_stack} -eq 1 ]; then hw_key=$hw_str
              elif [ -n "$hw_in" ] && [ ${#hw_stack} -eq 2 ]; then  # a key of Cline's call: read as Python reads it
                [ -z "$hw_esc" ] || return 1
                hw_ck=o hw_key2=$hw_str
              fi
              hw_want=: ;;
        *) if [ ${#hw_stack} -eq 1 ] && [ "$hw_key" = "$hw_field" ]; then
             [ -z "$hw_esc" ] || return 1
             hw_query=$hw_str
           fi
           hw_scalar "$hw_esc" s || return 1
           hw_want=c ;;
      esac
      hw_str=
      continue ;;
    esac
    hw_s=$hw_f
    while :; do  # outside a string
      case $hw_s in  # the next character, by one match (hw_c=${hw_s%"${hw_s#?}"} copies the rest twice)
        [$hw_ws]*) hw_s=${hw_s#"${hw_s%%[!$hw_ws]*}"}; continue ;;
        '') break ;;
        '{'*) hw_c='{' ;; '}'*) hw_c='}' ;; '['*) hw_c='[' ;; ']'*) hw_c=']' ;;
        ,*) hw_c=, ;; :*) hw_c=: ;; *) hw_c=- ;;  # (a scalar: [va]- below)
      esac
      [ -n "$hw_want" ] || return 1  # more after the object
      case $hw_want$hw_c in
        [va]'{'|[va]'[')
          hw_call "$hw_c" || return 1
          hw_stack=$hw_stack$hw_c hw_s=${hw_s#?}
          [ ${#hw_stack} -le 200 ] || return 1
          case $hw_c in '{') hw_want=k ;; *) hw_want=a ;; esac ;;
        [kc]'}'|[ac]']')
          case ${hw_stack#"${hw_stack%?}"}$hw_c in '{}'|'[]') ;; *) return 1 ;; esac
          [ -z "$hw_in" ] || [ ${#hw_stack} -ne 2 ] || hw_called
          hw_stack=${hw_stack%?} hw_s=${hw_s#?} hw_want=c
          [ -n "$hw_stack" ] || hw_want= ;;
        c,) hw_s=${hw_s#?}
            case $hw_stack in *'{') hw_want=K ;; *) hw_want=v ;; esac ;;
        :: ) hw_s=${hw_s#?} hw_want=v ;;
        [va]*)
          hw_tok=${hw_s%%[],\}$hw_ws]*} hw_s=${hw_s#"$hw_tok"}
          [ ${#hw_tok} -le 4000 ] || return 1  # Python refuses an integer of more than 4300 digits
          case $hw_tok in
            true|false|null|NaN|Infinity|-Infinity) ;;
            *) hw_num=${hw_tok#-}
               case $hw_num in 0*) hw_num=${hw_num#0} ;; [1-9]*) hw_num=${hw_num#"${hw_num%%[!0-9]*}"} ;; *) return 1 ;; esac
               case $hw_num in .[0-9]*) hw_num=${hw_num#.}; hw_num=${hw_num#"${hw_num%%[!0-9]*}"} ;; esac
               case $hw_num in [eE]*) hw_num=${hw_num#?}; hw_num=${hw_num#[-+]}
                 case $hw_num in [0-9]*) hw_num=${hw_num#"${hw_num%%[!0-9]*}"} ;; *) return 1 ;; esac ;; esac
               [ -z "$hw_num" ] || return 1 ;;
          esac
          [ ${#hw_stack} -gt 1 ] || [ "$hw_key" != "$hw_field" ] || hw_query=
          hw_scalar "" "$hw_tok" || return 1
          hw_want=c ;;
        *) return 1 ;;
      esac
    done
    case $hw_want in [kKva]) hw_instr=1 ;; *) hw_instr=x ;; esac  # what a quote after it may start
  done
  [ "$hw_was" != 1 ] || return 1  # the last field a string's: no quote closed it
  [ -z "$hw_want" ] || return 1
  # Cline's dispatcher: call = preToolUse or postToolUse (an empty object is false), its toolName
  if [ "$hw_pk" = o ]; then hw_qs=$hw_pt hw_query=${hw_pq-}
  elif [ -n "$hw_ok" ]; then hw_qs=$hw_ot hw_query=${hw_oq-}
  else hw_qs=; fi
}

hw_cline_key() {  # whether the top-level key being read is one Cline's dispatcher takes its call from
  [ "$hw_host" = cline ] && [ ${#hw_stack} -eq 1 ] && { [ "$hw_key" = preToolUse ] || [ "$hw_key" = postToolUse ]; }
}

hw_call() {  # $1 { or [ opening a value: Cline's call object starts (an array there: Python's to read)
  if hw_cline_key; then
    [ "$1" = '{' ] || return 1
    hw_in=1 hw_ck=e hw_ct= hw_cq= hw_key2=
  elif [ -n "$hw_in" ] && [ ${#hw_stack} -eq 2 ] && [ "$hw_key2" = toolName ]; then
    return 1  # a toolName that is no string: Python's to judge
  fi
  return 0
}

hw_called() {  # Cline's call object ends: the last of its key wins, as in Python's json
  if [ "$hw_key" = preToolUse ]; then hw_pk=$hw_ck hw_pt=$hw_ct hw_pq=$hw_cq; else hw_ok=$hw_ck hw_ot=$hw_ct hw_oq=$hw_cq; fi
  hw_in=
}

hw_scalar() {  # $1 escaped, $2 s (a string, in hw_str) or the token: Cline's call and toolName values
  if hw_cline_key; then  # null or false is no call (as absent); any other value: Python's to judge
    case $2 in null|false) if [ "$hw_key" = preToolUse ]; then hw_pk= hw_pt=; else hw_ok= hw_ot=; fi; return 0 ;; esac
    return 1
  fi
  [ -n "$hw_in" ] && [ ${#hw_stack} -eq 2 ] && [ "$hw_key2" = toolName ] || return 0
  case $2 in
    s) [ -z "$1" ] || return 1; hw_ct=s hw_cq=$hw_str ;;
    null) hw_ct= hw_cq= ;;
    *) return 1 ;;
  esac
}

[ "$hw_rc" -ne 4 ] || { hw_read= hw_query= hw_mm=; hw_members 0 "$@"; }  # from the start: no member ran

# @shapes: the answers' table (core/standalone/chainshapes.sh) goes here (core/plan/chainsh.py)

hw_answer() {  # $1 a member's stdout file, which printed it and exited 0, stderr empty -> hw_v: B (a block:
  # its stdout is the chain's) or A (an answer the chain keeps: hw_ans, as chainanswer.dumps writes it),
  # read by the shell itself where its shape is one the protocol table judged alike for every text
  # (hw_shapes, generated: core/model/shanswers.py); 1 when sh cannot read it exactly: Python reads it.
  # One line of printable ASCII (no escape), an object of strings, true, false and one nested object.
  hw_al= hw_l= hw_nl=
  { if IFS= read -r hw_al; then hw_nl=1; IFS= read -r hw_l && return 1; [ -z "$hw_l" ] || return 1; fi; } <"$1"
  case $hw_al in *[!\ abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\!\"\#\$%\&\'\(\)\*+,./:\;\<=\>?@\[\]^_\`{\|}~-]*) return 1 ;; esac
  hw_s=${hw_al#"${hw_al%%[! ]*}"} hw_u=' ' hw_pre= hw_want=k
  case $hw_s in '{'*) hw_s=${hw_s#?} hw_ans='{' ;; *) return 1 ;; esac
  while :; do
    hw_s=${hw_s#"${hw_s%%[! ]*}"}
    case $hw_want$hw_s in
      [kc]'}'*) hw_s=${hw_s#?} hw_ans="$hw_ans}" hw_want=c
                [ -n "$hw_pre" ] || break
                hw_pre= ;;
      c,*) hw_s=${hw_s#?} hw_want=K ;;
      [kK]'"'*)
        hw_s=${hw_s#?} hw_k=${hw_s%%\"*}
        [ "$hw_k" != "$hw_s" ] || return 1
        case $hw_k in ''|*[!A-Za-z_]*) return 1 ;; esac
        case $hw_keys in *" $hw_pre$hw_k="*) ;; *) return 1 ;; esac  # a key of no shape
        hw_q=${hw_keys#*" $hw_pre$hw_k="} hw_q=${hw_q%% *}
        case $hw_u in *" $hw_q"?" "*) return 1 ;; esac  # a duplicate key
        hw_s=${hw_s#*\"} hw_s=${hw_s#"${hw_s%%[! ]*}"}
        case $hw_s in :*) hw_s=${hw_s#?} hw_s=${hw_s#"${hw_s%%[! ]*}"} ;; *) return 1 ;; esac
        [ "$hw_want" = k ] || hw_ans="$hw_ans, "
        hw_ans="$hw_ans\"$hw_k\": " hw_want=c
        case $hw_s in
          '{'*) [ -z "$hw_pre" ] || return 1
                hw_s=${hw_s#?} hw_pre="$hw_k." hw_m='{' hw_ans="$hw_ans{" hw_want=k ;;
          '"'*) hw_s=${hw_s#?} hw_x=${hw_s%%\"*}
                [ "$hw_x" != "$hw_s" ] || return 1
                hw_s=${hw_s#*\"} hw_ans="$hw_ans\"$hw_x\""
                if [ "$hw_x" = "$hw_event" ]; then hw_m=@; else hw_word "$hw_x"; fi ;;
          true*) hw_s=${hw_s#true} hw_m=1 hw_ans="${hw_ans}true" ;;
          false*) hw_s=${hw_s#false} hw_m=0 hw_ans="${hw_ans}false" ;;
          *) return 1 ;;
        esac
        hw_u="$hw_u$hw_q$hw_m " ;;
      *) return 1 ;;
    esac
  done
  [ -z "${hw_s#"${hw_s%%[! ]*}"}" ] || return 1  # more after the object
  hw_sig=
  for hw_q in $hw_order; do  # the keys in the table's order
    case $hw_u in *" $hw_q"?" "*) hw_x=${hw_u#*" $hw_q"} hw_sig=$hw_sig$hw_q${hw_x%%" "*} ;; esac
  done
  [ -n "${hw_B+1}" ] || hw_shapes "$hw_host" "$hw_event"
  case $hw_B in *" $hw_sig "*) hw_v=B ;; *)
    case $hw_A in *" $hw_sig "*) hw_v=A ;; *) return 1 ;; esac ;;
  esac
  # the shell's read drops a NUL, which Python's json refuses: the file must hold just what was read
  hw_x=$(LC_ALL=C exec wc -c <"$1") || return 1
  [ "${hw_x#"${hw_x%%[! ]*}"}" = $((${#hw_al} + ${hw_nl:-0})) ]
}

while :; do  # member hw_i answered: read it here, else Python reads it; then on with the next
  hw_answer "$hw_base.o$hw_i" || hw_handoff "$hw_i" 0 0 "$@"
  if [ "$hw_v" = B ]; then  # the chain ends with the blocking member's own stdout, as Python's does
    printf '%s' "$hw_al"; [ -z "$hw_nl" ] || echo
    exit 0
  fi
  [ -z "$hw_kept" ] || hw_handoff "$hw_i" 0 0 "$@"  # a second answer: Python combines them
  hw_kept=$hw_ans  # (Python reads it again from its file, should it take over later)
  hw_members $((hw_i + 1)) "$@"
done
