#!/usr/bin/env bash
# bench_batch.sh - throughput and memory of `dmltensor batch` against a
# baseline of jq reading the same JSON Lines file, measured in the same run.
#
# A file of RECORDS realistic descriptors (default 1,000,000; also
# $DMLT_BENCH_BATCH_RECORDS) is generated in a temporary directory: mostly
# {"id":N,"dtype":"float16","sizes":[1,C,H,W],"layout":"nhwc"} with varied
# data types, batch sizes, channels and spatial sizes, some with explicit
# (padded NHWC) strides, some in DirectML's field names, some validate
# records with TotalTensorSizeInBytes and an alignment.  Every record is
# valid, so batch must exit 0.  Reported:
#   records/s   of `jq -c '{sizes, n: (.sizes|length)}' FILE > /dev/null`
#               (the baseline), of `dmltensor batch FILE > /dev/null`, and of
#               batch on the same records as one JSON array;
#   ratio       dmltensor's records/s over jq's (goal: >= 4.0);
#   peak RSS    /usr/bin/time -f %M of batch on RECORDS and on RECORDS/10
#               records (and on the array): batch streams, so its memory must
#               not grow with the record count (goal: ratio <= 1.25);
#   callgrind   instructions per record (JSON Lines and array), and the top
#               15 functions by instruction count (callgrind_annotate,
#               exclusive) of batch on the first 2,000 records.
# Times come from hyperfine (mean of 3 runs) if it is on PATH, else from
# plain timing of 3 runs each (date +%s.%N).  jq, valgrind and /usr/bin/time
# are optional: a part whose tool is missing is skipped with a note.
#   peak RSS on bad records: RSS_RECORDS (default 1,000,000;
#               $DMLT_BENCH_BATCH_RSS_RECORDS) records of each kind of bad
#               record (bad JSON, text after the record, an unknown key, a bad
#               value, a wrong type) and an array of them all, each against
#               as many good records (goal: ratio <= 1.25).
# This is a report, not a test: it exits 0 even when a time goal is missed,
# and 1 if a command could not be run or gave a wrong result, or when the
# peak RSS of a kind of bad record passes 1.25x good records' (memory is not
# noise: that is a leak).
set -euo pipefail

usage() {
    echo "usage: $0 [path/to/dmltensor] [RECORDS]   (defaults: <repo>/build/dmltensor, 1000000)"
    echo "       RECORDS may also be given as DMLT_BENCH_BATCH_RECORDS"
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
esac

die() { echo "bench_batch.sh: error: $*" >&2; exit 1; }

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
records=${2:-${DMLT_BENCH_BATCH_RECORDS:-1000000}}
[ -x "$bin" ] || die "dmltensor binary not found or not executable: $bin"
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
case "$records" in ''|*[!0-9]*) die "RECORDS is not a number: $records" ;; esac
[ "$records" -ge 10000 ] || die "RECORDS must be at least 10000 (got $records)"
small=$((records / 10))
runs=3
profile_records=2000

have() { command -v "$1" >/dev/null 2>&1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the records ---------------------------------------------------------------
# gen N SEED > FILE: one descriptor per line, all valid.
gen() {
    awk -v n="$1" -v seed="$2" 'BEGIN {
        srand(seed)
        nd = split("float16 float16 float16 float16 float32 float32 int8 uint8 int32", dt, " ")
        split("2 2 2 2 4 4 1 1 4", bpe, " ")
        nc = split("3 16 24 32 48 64 96 128 192 256 384 512 1024", C, " ")
        nh = split("1 7 14 28 56 112 224 256 299 320 512", H, " ")
        nb = split("1 1 1 1 1 2 4 8 16 32", B, " ")
        for (i = 1; i <= n; i++) {
            k = int(rand() * nd) + 1; d = dt[k]
            c = C[int(rand() * nc) + 1]
            h = H[int(rand() * nh) + 1]
            w = rand() < 0.8 ? h : H[int(rand() * nh) + 1]
            b = B[int(rand() * nb) + 1]
            r = rand()
            if (r < 0.75) {
                printf "{\"id\":%d,\"dtype\":\"%s\",\"sizes\":[%d,%d,%d,%d],\"layout\":\"%s\"}\n",
                    i, d, b, c, h, w, rand() < 0.8 ? "nhwc" : "nchw"
            } else if (r < 0.87) {
                # NHWC with 2 elements of padding after each row
                printf "{\"id\":%d,\"dtype\":\"%s\",\"sizes\":[%d,%d,%d,%d],\"strides\":[%d,1,%d,%d]}\n",
                    i, d, b, c, h, w, c * h * (w + 2), c * (w + 2), c
            } else if (r < 0.95) {
                printf "{\"id\":%d,\"DataType\":\"DML_TENSOR_DATA_TYPE_%s\",\"Sizes\":[%d,%d,%d,%d],\"Strides\":[%d,%d,%d,1]}\n",
                    i, toupper(d), b, c, h, w, c * h * w, h * w, w
            } else {
                # validate: the exact minimum size (rounded up to 4 bytes), batch 1
                bytes = c * h * w * bpe[k]
                total = int((bytes + 3) / 4) * 4
                printf "{\"id\":%d,\"dtype\":\"%s\",\"sizes\":[1,%d,%d,%d],\"layout\":\"nhwc\",\"command\":\"validate\",\"total_tensor_size_bytes\":%.0f,\"guaranteed_base_offset_alignment\":256}\n",
                    i, d, c, h, w, total
            }
        }
    }'
}

# to_array JSONL > JSON: the same records as one JSON array, one per line
to_array() {
    echo "["
    sed '$!s/$/,/' "$1"
    echo "]"
}

jsonl="$tmp/records.jsonl"
jsonl_small="$tmp/records_small.jsonl"
array="$tmp/records.json"
gen "$records" 42 >"$jsonl"
gen "$small" 42 >"$jsonl_small"
to_array "$jsonl" >"$array"
head -n "$profile_records" "$jsonl" >"$tmp/profile.jsonl"
size_mb=$(wc -c <"$jsonl" | awk '{ printf "%.1f", $1 / 1e6 }')

# Each batch run is first checked: exit 0, one output line per record, and
# nothing on stderr.
check_batch() { # file expected-lines
    local n
    n=$("$bin" batch "$1" 2>"$tmp/err" | wc -l) || die "dmltensor batch $1 failed:"$'\n'"$(cat "$tmp/err")"
    [ "$n" -eq "$2" ] || die "dmltensor batch $1: $n output lines for $2 records"
    [ ! -s "$tmp/err" ] || die "dmltensor batch $1 wrote to stderr:"$'\n'"$(head -c 600 "$tmp/err")"
}
check_batch "$jsonl" "$records"
check_batch "$array" "$records"

# --- wall clock ---------------------------------------------------------------
# Mean wall time in seconds of each command and, with hyperfine, its mean
# CPU time (user + system; "n/a" without): "wall cpu", one line each.
mean_times() {
    if have hyperfine; then
        hyperfine -N --output=null --runs "$runs" --style none \
            --export-json "$tmp/hf.json" "$@" >"$tmp/hf.log" 2>&1 \
            || die "hyperfine failed:"$'\n'"$(cat "$tmp/hf.log")"
        paste -d ' ' \
            <(grep -o '"mean": *[0-9.eE+-]*' "$tmp/hf.json" | sed 's/.*: *//') \
            <(grep -o '"user": *[0-9.eE+-]*' "$tmp/hf.json" | sed 's/.*: *//') \
            <(grep -o '"system": *[0-9.eE+-]*' "$tmp/hf.json" | sed 's/.*: *//') \
            | awk '{ printf "%s %.9f\n", $1, $2 + $3 }'
    else
        local cmd i t0 t1
        for cmd in "$@"; do
            t0=$(date +%s.%N)
            for ((i = 0; i < runs; i++)); do
                eval "$cmd" >/dev/null || die "command failed: $cmd"
            done
            t1=$(date +%s.%N)
            awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.9f n/a\n", (b - a) / n }'
        done
    fi
}

if have hyperfine; then
    timer="hyperfine $(hyperfine --version | awk '{ print $2 }'), mean of $runs runs"
else
    timer="plain timing (hyperfine not found), mean of $runs runs"
fi
echo "dmltensor batch vs jq: $records records ($size_mb MB of JSON Lines), output to /dev/null; $timer"
echo

names=()
cmds=()
if have jq; then
    names+=("jq (baseline)")
    cmds+=("jq -c '{sizes, n: (.sizes|length)}' $jsonl")
fi
names+=("dmltensor batch" "dmltensor batch (array)")
cmds+=("$bin batch $jsonl" "$bin batch $array")

times=$(mean_times "${cmds[@]}")
secs=()
cpus=()
while read -r wall cpu; do
    secs+=("$wall")
    cpus+=("$cpu")
done <<<"$times"
[ "${#secs[@]}" -eq "${#cmds[@]}" ] || die "expected ${#cmds[@]} timings, got ${#secs[@]}"

base=""
base_cpu=""
if have jq; then
    base=${secs[0]}
    base_cpu=${cpus[0]}
fi
printf '%-26s %10s %14s %8s %10s %8s\n' "case" "wall s" "records/s" "vs jq" "cpu s" "vs jq"
for i in "${!cmds[@]}"; do
    awk -v t="${secs[$i]}" -v c="${cpus[$i]}" -v n="$records" -v b="$base" -v bc="$base_cpu" \
        -v name="${names[$i]}" 'BEGIN {
        cpu = c == "n/a" ? "n/a" : sprintf("%.3f", c)
        printf "%-26s %10.3f %14.0f %8s %10s %8s\n", name, t, n / t,
            b == "" ? "n/a" : sprintf("%.2fx", b / t), cpu,
            (b == "" || c == "n/a") ? "n/a" : sprintf("%.2fx", bc / c)
    }'
done
echo "(vs jq: jq's time over this one's, i.e. records/s over jq's records/s)"
echo
if have jq; then
    i=$((${#cmds[@]} - 2)) # dmltensor batch (JSON Lines)
    ratio=$(awk -v b="$base" -v t="${secs[$i]}" 'BEGIN { printf "%.2f", b / t }')
    verdict=$(awk -v r="$ratio" 'BEGIN { print (r >= 4.0 ? "PASS" : "MISS") }')
    echo "goal: dmltensor batch records/s >= 4.0x jq's: ${ratio}x $verdict"
    if [ "${cpus[$i]}" != n/a ]; then
        echo "      (by CPU time, less sensitive to a busy machine:" \
            "$(awk -v b="$base_cpu" -v t="${cpus[$i]}" 'BEGIN { printf "%.2fx", b / t }'))"
    fi
else
    echo "goal: dmltensor batch records/s >= 4.0x jq's: jq not found (apt-get install jq); skipped"
fi

# --- peak RSS ----------------------------------------------------------------
echo
if [ -x /usr/bin/time ]; then
    rss() { # file -> peak RSS in KB
        /usr/bin/time -f %M -o "$tmp/rss" "$bin" batch "$1" >/dev/null 2>"$tmp/err" \
            || die "dmltensor batch $1 failed:"$'\n'"$(cat "$tmp/err")"
        tail -n 1 "$tmp/rss"
    }
    rss_small=$(rss "$jsonl_small")
    rss_large=$(rss "$jsonl")
    rss_array=$(rss "$array")
    echo "peak RSS of dmltensor batch (/usr/bin/time -f %M):"
    printf '%-34s %10s KB\n' "$small records (JSON Lines)" "$rss_small" \
        "$records records (JSON Lines)" "$rss_large" "$records records (JSON array)" "$rss_array"
    verdict=$(awk -v a="$rss_small" -v b="$rss_large" -v c="$rss_array" 'BEGIN {
        r = b / a; ra = c / a
        printf "%.2fx (array %.2fx) %s", r, ra, (r <= 1.25 && ra <= 1.25) ? "PASS" : "MISS" }')
    echo "goal: peak RSS at $records records <= 1.25x at $small: $verdict"
else
    echo "peak RSS: /usr/bin/time not found (apt-get install time); skipped"
fi

# --- peak RSS on bad records ---------------------------------------------------
# A bad record must cost no more memory than a good one: RSS_RECORDS
# (default 1,000,000; $DMLT_BENCH_BATCH_RSS_RECORDS) records of each kind,
# each file against RSS_RECORDS good records. Each kind varies its id and
# its fault so that no two records are alike. Unlike the timings, this is a
# test: peak RSS is not noise, so a kind over 1.25x fails the script.
echo
rss_records=${DMLT_BENCH_BATCH_RSS_RECORDS:-1000000}
case "$rss_records" in ''|*[!0-9]*) die "DMLT_BENCH_BATCH_RSS_RECORDS is not a number" ;; esac
if [ -x /usr/bin/time ]; then
    # bad KIND N > FILE: N records of one kind of fault, one a line.
    bad() {
        awk -v kind="$1" -v n="$2" -v in_array="${3:-0}" 'BEGIN {
            # The last fault (an object never closed) would swallow the rest of
            # an array: an array element takes the others only.
            nv = split("{\"id\":%d,\"sizes\":[1,%d],}|{\"id\":%d,\"sizes\":[1,%d],\"strides\":tru}|{\"id\":%d \"sizes\":[1,%d]}|{\"id\":%d,\"sizes\":[1,%d],\"dtype\":\"f\\u0000\"}|{\"id\":%d,\"sizes\":[1,%d]", badjson, "|")
            if (in_array) nv--
            for (i = 1; i <= n; i++) {
                m = i % 1000 + 1
                if (kind == "bad_json") printf badjson[i % nv + 1] "\n", i, m
                else if (kind == "trailing") printf "{\"id\":%d,\"sizes\":[1,%d]} x%d\n", i, m, i
                else if (kind == "unknown_key") printf "{\"id\":%d,\"sizes\":[1,%d],\"sise%d\":1}\n", i, m, m
                else if (kind == "bad_value") printf "{\"id\":%d,\"sizes\":[%d,0,2],\"dtype\":\"float%d\"}\n", i, m, m
                else if (kind == "wrong_type") printf "{\"id\":%d,\"sizes\":[1,%d],\"layout\":[%d]}\n", i, m, m
            }
        }'
    }
    # bad_array N > FILE: one JSON array of N bad records, a fifth of each
    # kind, kind after kind (a good record between two bad ones would hide
    # memory that only bad records keep).
    bad_array() {
        local n=$1 k=$(($1 / 5 + 1)) kind
        for kind in bad_json trailing unknown_key bad_value wrong_type; do
            bad "$kind" "$k" 1 >"$tmp/array_$kind"
        done
        echo "["
        cat "$tmp"/array_bad_json "$tmp"/array_trailing "$tmp"/array_unknown_key \
            "$tmp"/array_bad_value "$tmp"/array_wrong_type \
            | awk -v n="$n" 'NR > n { exit } NR > 1 { print prev "," } { prev = $0 } END { print prev }'
        echo "]"
        rm -f "$tmp"/array_*
    }
    # rss_bad FILE RECORDS: peak RSS in KB; batch must answer every record
    # with an error record (exit 1, one line each).
    rss_bad() {
        local status=0
        /usr/bin/time -f %M -o "$tmp/rss" "$bin" batch "$1" >"$tmp/out" 2>"$tmp/err" || status=$?
        [ "$status" -eq 1 ] || die "dmltensor batch $1: exit $status, expected 1:"$'\n'"$(tail -c 600 "$tmp/err")"
        local lines errors
        lines=$(wc -l <"$tmp/out")
        errors=$(grep -c '"error":{"id":' "$tmp/out" || true)
        [ "$lines" -eq "$2" ] && [ "$errors" -eq "$2" ] \
            || die "dmltensor batch $1: $lines lines, $errors error records for $2 bad records"
        tail -n 1 "$tmp/rss"
    }
    if [ "$rss_records" -eq "$records" ]; then good_file=$jsonl; else
        good_file="$tmp/good_rss.jsonl"
        gen "$rss_records" 7 >"$good_file"
    fi
    rss_good=$(rss "$good_file")
    echo "peak RSS of dmltensor batch on $rss_records bad records of each kind (/usr/bin/time -f %M):"
    printf '%-34s %10s KB\n' "good records (the baseline)" "$rss_good"
    worst=0
    fails=""
    for kind in bad_json trailing unknown_key bad_value wrong_type array; do
        if [ "$kind" = array ]; then
            bad_array "$rss_records" >"$tmp/bad.json"
            file="$tmp/bad.json"
        else
            bad "$kind" "$rss_records" >"$tmp/$kind"
            file="$tmp/$kind"
        fi
        kb=$(rss_bad "$file" "$rss_records")
        ratio=$(awk -v a="$kb" -v b="$rss_good" 'BEGIN { printf "%.2f", a / b }')
        printf '%-34s %10s KB  %sx\n' "$kind" "$kb" "$ratio"
        if awk -v r="$ratio" 'BEGIN { exit !(r > 1.25) }'; then fails="$fails $kind"; fi
    done
    rm -f "$tmp"/bad_json "$tmp"/trailing "$tmp"/unknown_key "$tmp"/bad_value "$tmp"/wrong_type "$tmp/bad.json" "$tmp/out"
    if [ -n "$fails" ]; then
        echo "goal: each kind's peak RSS <= 1.25x good records': FAIL ($fails)"
        rss_failed=1
    else
        echo "goal: each kind's peak RSS <= 1.25x good records': PASS"
    fi
else
    echo "peak RSS on bad records: /usr/bin/time not found (apt-get install time); skipped"
fi

# --- where the time goes -------------------------------------------------------
echo
if have valgrind && have callgrind_annotate; then
    valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" \
        "$bin" batch "$tmp/profile.jsonl" >/dev/null 2>"$tmp/vg.log" \
        || die "valgrind failed:"$'\n'"$(tail -n 20 "$tmp/vg.log")"
    total=$(sed -n 's/^==[0-9]*== Collected : *\([0-9][0-9]*\).*/\1/p' "$tmp/vg.log" | tail -n 1)
    [ -n "$total" ] || die "no 'Collected :' line from valgrind"
    echo "callgrind: dmltensor batch on $profile_records records: $total instructions," \
        "$(awk -v t="$total" -v n="$profile_records" 'BEGIN { printf "%.0f", t / n }') per record"
    to_array "$tmp/profile.jsonl" >"$tmp/profile.json"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$bin" batch "$tmp/profile.json" >/dev/null 2>"$tmp/vg.log" \
        || die "valgrind failed:"$'\n'"$(tail -n 20 "$tmp/vg.log")"
    total_array=$(sed -n 's/^==[0-9]*== Collected : *\([0-9][0-9]*\).*/\1/p' "$tmp/vg.log" | tail -n 1)
    echo "callgrind: the same records as one JSON array: $total_array instructions," \
        "$(awk -v t="$total_array" -v n="$profile_records" 'BEGIN { printf "%.0f", t / n }') per record"
    echo "top 15 functions by instructions (exclusive):"
    # awk stops after 15 rows itself: a `| head` would close the pipe on
    # callgrind_annotate, whose SIGPIPE fails the script under pipefail.
    callgrind_annotate "$tmp/callgrind.out" 2>/dev/null \
        | awk '/file:function/ { table = 1; getline; next } table && NF && n++ < 15' \
        | sed -e 's| \[[^]]*\]$||' -e "s|$repo_root/||" -e 's|^|  |'
else
    echo "callgrind: valgrind not found (apt-get install valgrind); skipped"
fi

[ -z "${rss_failed:-}" ] || die "peak RSS grows with bad records (see above)"
exit 0
