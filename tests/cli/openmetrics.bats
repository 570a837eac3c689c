#!/usr/bin/env bats
# --openmetrics FILE: what a log's account, an allocinfo snapshot or a
# kernel snapshot says, as metric families for Prometheus; checked by
# promtool (Debian's prometheus), and by a real prometheus-node-exporter
# and prometheus on loopback that scrape the file 'snapshot --openmetrics'
# writes from a copy of the 6.12 guest's /proc and /sys/fs/cgroup at its
# moment B (tests/fixtures/ksnapshot-6.12-B, through TA_TEST_SNAPSHOT_ROOT):
# Prometheus' sum by module equals this tool's own account by module.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	SNAP="$FIX/ksnapshot-6.12-B"
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	local p
	for p in prometheus.pid exporter.pid; do
		[ -f "$p" ] && kill "$(cat "$p")" 2> /dev/null && wait "$(cat "$p")" 2> /dev/null
		rm -f "$p"
	done
	return 0
}

# fake_root DIR: the fixture's files where the running kernel has them
fake_root() {
	mkdir -p "$1/proc/sys/kernel/random" "$1/sys/fs/cgroup"
	cp "$SNAP"/{meminfo,slabinfo,vmallocinfo,vmstat,zoneinfo,buddyinfo,modules,allocinfo} "$1/proc/"
	cp -r "$SNAP/cgroup/." "$1/sys/fs/cgroup/"
	echo "cpu memory" > "$1/sys/fs/cgroup/cgroup.controllers"
	echo guest > "$1/proc/sys/kernel/hostname"
	echo 6.12.8 > "$1/proc/sys/kernel/osrelease"
	echo 0f2e-b00t > "$1/proc/sys/kernel/random/boot_id"
}

need_promtool() {
	command -v promtool > /dev/null || skip "no promtool (Debian's prometheus): it checks the files"
}

@test "--openmetrics of an allocinfo snapshot: families with HELP, TYPE, UNIT, EOF; promtool takes it" {
	need_promtool
	"$TA" -q -f "$SNAP/allocinfo" --openmetrics a.prom
	promtool check metrics < a.prom
	[ "$(tail -n 1 a.prom)" = "# EOF" ]
	grep -qx '# TYPE trace_analyze_allocinfo_bytes gauge' a.prom
	grep -qx '# UNIT trace_analyze_allocinfo_bytes bytes' a.prom
	# a series a live site, its bytes the file's
	[ "$(grep -c '^trace_analyze_allocinfo_bytes{' a.prom)" = 433 ]
	[ "$(awk '/^trace_analyze_allocinfo_bytes\{/ { s += $NF } END { print s }' a.prom)" = \
	  "$(awk '$1 ~ /^[0-9]+$/ { s += $1 } END { print s }' "$SNAP/allocinfo")" ]
	grep -q '^trace_analyze_allocinfo_bytes{site="fs/ext4/super.c:[0-9]*",function="ext4_alloc_inode",file="fs/ext4/super.c",module="ext4"} [0-9]*$' a.prom
}

@test "--openmetrics --top N and --min-bytes: N series a family, the rest summed into one 'other'" {
	need_promtool
	"$TA" -q -f "$SNAP/allocinfo" --openmetrics all.prom --group-by module
	"$TA" -q -f "$SNAP/allocinfo" --openmetrics top.prom --group-by module --top 2
	promtool check metrics < top.prom
	[ "$(grep '^trace_analyze_allocinfo_bytes{' top.prom)" = 'trace_analyze_allocinfo_bytes{module="vmlinux"} 215362200
trace_analyze_allocinfo_bytes{module="ext4"} 1644208
trace_analyze_allocinfo_bytes{module="other"} 76896' ]
	"$TA" -q -f "$SNAP/allocinfo" --openmetrics min.prom --group-by module --min-bytes 10000
	[ "$(grep -c '^trace_analyze_allocinfo_bytes{' min.prom)" = 4 ]
	grep -qx 'trace_analyze_allocinfo_bytes{module="other"} 12512' min.prom
	# the totals stay whole
	for f in all top min; do
		[ "$(awk '/^trace_analyze_allocinfo_bytes\{/ { s += $NF } END { print s }' $f.prom)" = 217083304 ]
	done
}

@test "--openmetrics of a kmem log: its account by the rows --group-by makes; --tag's values on every series" {
	need_promtool
	printf '# tracer: nop\n' > t.log
	printf '  cat-7   [000] .....   1.000000: kmalloc: call_site=f+0x1/0x9 ptr=ffff888000000100 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false\n' >> t.log
	printf '  cat-7   [000] .....   1.000001: kmalloc: call_site=f+0x1/0x9 ptr=ffff888000000200 bytes_req=10 bytes_alloc=16 gfp_flags=GFP_KERNEL node=-1 accounted=false\n' >> t.log
	printf '  sh-8   [000] .....   1.000002: kfree: call_site=g+0x1/0x9 ptr=ffff888000000200\n' >> t.log
	"$TA" -q -f t.log --openmetrics t.prom --group-by comm
	promtool check metrics < t.prom
	[ "$(grep -v '^#' t.prom)" = 'trace_analyze_slab_live_bytes{comm="cat"} 128
trace_analyze_slab_allocated_bytes{comm="cat"} 144
trace_analyze_slab_allocations{comm="cat"} 2' ]
	"$TA" -q -f t.log --openmetrics tagged.prom --tag 'host=web"1\a,kernel=6.1'
	promtool check metrics < tagged.prom
	grep -qx 'trace_analyze_slab_live_bytes{callsite="f+0x1",host="web\\"1\\\\a",kernel="6.1"} 128' tagged.prom
}

@test "label values escaped: a quote, a backslash, a byte that is no UTF-8; duplicate sites summed" {
	need_promtool
	{ head -n 2 "$SNAP/allocinfo"
	  printf '        4096        1 fs/we"ird\\\\x.c:12 func:f\xffn\n'
	  printf '        8192        2 fs/a.c:1 func:g\n'
	  printf '         100        1 fs/a.c:1 func:g\n'; } > odd.alloc
	"$TA" -q -f odd.alloc --openmetrics o.prom
	promtool check metrics < o.prom
	grep -qx 'trace_analyze_allocinfo_bytes{site="fs/we\\"ird\\\\\\\\x.c:12",function="f\\\\xffn",file="fs/we\\"ird\\\\\\\\x.c",module="vmlinux"} 4096' o.prom
	[ "$(grep -c 'site="fs/a.c:1"' o.prom)" = 2 ]
	grep -qx 'trace_analyze_allocinfo_bytes{site="fs/a.c:1",function="g",file="fs/a.c",module="vmlinux"} 8292' o.prom
}

@test "--openmetrics of a kernel snapshot: the ledger's lines, each cgroup's kernel memory, labelled with its stamp" {
	need_promtool
	mkdir root
	fake_root root
	TA_TEST_SNAPSHOT_ROOT="$PWD/root" "$TA" snapshot -q --openmetrics k.prom
	promtool check metrics < k.prom
	# the ledger's lines are --ledger's, each a series
	"$TA" -q -f "$SNAP" --ledger l.csv --format csv
	python3 - k.prom l.csv <<'PY'
import csv, re, sys
got = {}
for line in open(sys.argv[1]):
    m = re.match(r'trace_analyze_ledger_bytes\{line="([^"]*)",part="([^"]*)",source="[^"]*",host="guest",kernel="6.12.8",boot_id="0f2e-b00t"\} (-?\d+)$', line)
    if m:
        got[m.group(1)] = int(m.group(3))
want = {r["key"] if "key" in r else r["line"]: int(r["bytes"]) for r in csv.DictReader(open(sys.argv[2]))}
assert got == want, (got, want)
PY
	# cgroup a's slab, as its memory.stat says
	grep -qx "trace_analyze_cgroup_kernel_bytes{cgroup=\"/a\",kind=\"slab\",host=\"guest\",kernel=\"6.12.8\",boot_id=\"0f2e-b00t\"} $(awk '$1 == "slab" { print $2 }' "$SNAP/cgroup/a/memory.stat")" k.prom
	grep -qx "trace_analyze_cgroup_memory_bytes{cgroup=\"/a\",host=\"guest\",kernel=\"6.12.8\",boot_id=\"0f2e-b00t\"} $(cat "$SNAP/cgroup/a/memory.current")" k.prom
}

@test "the exporter: a read-only folder keeps the file before; two writers leave one whole file" {
	need_promtool
	mkdir root out
	fake_root root
	export TA_TEST_SNAPSHOT_ROOT="$PWD/root"
	"$TA" snapshot -q --openmetrics out/t.prom --interval 0.05 --count 3
	promtool check metrics < out/t.prom
	cp out/t.prom before.prom
	chmod a-w out
	if [ -w out ]; then	# root writes anyway: a full folder is tried instead below
		chmod u+w out
	else
		run "$TA" snapshot -q --openmetrics out/t.prom
		chmod u+w out
		[ "$status" -eq 1 ]
		[[ "$output" == "trace_analyze: error: cannot"*"out/t.prom"* ]]
		cmp before.prom out/t.prom
	fi
	# two exporters on one file, at once: each rename whole, so the file is one of theirs
	"$TA" snapshot -q --openmetrics out/t.prom --interval 0.01 --count 30 &
	"$TA" snapshot -q --openmetrics out/t.prom --interval 0.01 --count 30
	wait
	promtool check metrics < out/t.prom
	[ "$(tail -n 1 out/t.prom)" = "# EOF" ]
	[ "$(ls out)" = t.prom ]
}

@test "the exporter on a full file system: an error, the file before stays" {
	[ "$(id -u)" = 0 ] || skip "mounting a small tmpfs needs root"
	mkdir root small
	fake_root root
	mount -t tmpfs -o size=64k tmpfs small || skip "cannot mount a tmpfs here"
	TA_TEST_SNAPSHOT_ROOT="$PWD/root" "$TA" snapshot -q --openmetrics small/t.prom --top 5
	cp small/t.prom before.prom
	head -c 60000 /dev/zero > small/filler 2> /dev/null || true
	TA_TEST_SNAPSHOT_ROOT="$PWD/root" run "$TA" snapshot -q --openmetrics small/t.prom
	cmp before.prom small/t.prom
	umount small
	[ "$status" -eq 1 ]
}

@test "a real node_exporter and Prometheus on loopback: sum by (module) of the exporter's file is the account by module" {
	command -v prometheus-node-exporter > /dev/null && command -v prometheus > /dev/null ||
		skip "no prometheus-node-exporter or prometheus (Debian packages)"
	command -v curl > /dev/null || skip "no curl"
	mkdir root textfiles data
	fake_root root
	TA_TEST_SNAPSHOT_ROOT="$PWD/root" "$TA" snapshot -q --openmetrics textfiles/trace_analyze.prom
	read -r exporter_port prometheus_port < <(python3 -c 'import socket
ports = []
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); ports.append(s.getsockname()[1]); s.close()
print(*ports)')
	prometheus-node-exporter --web.listen-address="127.0.0.1:$exporter_port" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$PWD/textfiles" > exporter.log 2>&1 &
	echo $! > exporter.pid
	printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
		"$exporter_port" > prometheus.yml
	prometheus --config.file=prometheus.yml --storage.tsdb.path="$PWD/data" \
		--web.listen-address="127.0.0.1:$prometheus_port" > prometheus.log 2>&1 &
	echo $! > prometheus.pid
	# ask until Prometheus has scraped once (a condition, not a time: at most 120 tries)
	local i answer=""
	for i in $(seq 120); do
		answer=$(curl -s --get "http://127.0.0.1:$prometheus_port/api/v1/query" \
			--data-urlencode 'query=sum by (module) (trace_analyze_allocinfo_bytes)') || true
		[[ "$answer" == *'"result":[{'* ]] && break
		sleep 0.5
	done
	[[ "$answer" == *'"result":[{'* ]] || { cat exporter.log prometheus.log; false; }
	echo "$answer" | jq -r '.data.result[] | "\(.metric.module) \(.value[1])"' | sort > prometheus.txt
	"$TA" -q -f "$SNAP/allocinfo" --group-by module -c m.csv --format csv
	python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print(r["key"], r["bytes"])' m.csv | sort > account.txt
	diff account.txt prometheus.txt
	# and cgroup a's slab as the fixture's memory.stat says, labelled with the host
	answer=$(curl -s --get "http://127.0.0.1:$prometheus_port/api/v1/query" \
		--data-urlencode 'query=trace_analyze_cgroup_kernel_bytes{cgroup="/a",kind="slab",host="guest"}')
	[ "$(echo "$answer" | jq -r '.data.result[0].value[1]')" = "$(awk '$1 == "slab" { print $2 }' "$SNAP/cgroup/a/memory.stat")" ]
}

@test "100,000 allocinfo sites: --top 50 keeps the file to 50 series a family and 'other', the total whole" {
	need_promtool
	{ head -n 2 "$SNAP/allocinfo"
	  awk 'BEGIN { for (i = 1; i <= 100000; i++) printf "%12d %8d drivers/x/f%d.c:%d func:fn%d\n", i * 8, i, i % 977, i, i }'; } > big.alloc
	"$TA" -q -f big.alloc --openmetrics big.prom --top 50
	promtool check metrics < big.prom
	[ "$(grep -c '^trace_analyze_allocinfo_bytes{' big.prom)" = 51 ]
	[ "$(grep -c '^trace_analyze_allocinfo_allocations{' big.prom)" = 51 ]
	[ "$(awk '/^trace_analyze_allocinfo_bytes\{/ { s += $NF } END { printf "%.0f", s }' big.prom)" = $((8 * 100000 * 100001 / 2)) ]
}

@test "data/trace-analyze-exporter.service's command line runs as written (its file a test folder's)" {
	need_promtool
	mkdir root out
	fake_root root
	line=$(sed -n 's/^ExecStart=//p' "$TOP/data/trace-analyze-exporter.service")
	[[ "$line" == "/usr/local/bin/trace_analyze snapshot --openmetrics /var/lib/prometheus/node-exporter/trace_analyze.prom --interval 60 "* ]]
	read -r -a argv <<< "$line"
	argv[0]=$TA
	argv[3]=$PWD/out/trace_analyze.prom
	argv[5]=0.01
	TA_TEST_SNAPSHOT_ROOT="$PWD/root" "${argv[@]}" --count 2
	promtool check metrics < out/trace_analyze.prom
	command -v systemd-analyze > /dev/null || return 0
	# its keys, as systemd reads them (the binary it names need not be here)
	run systemd-analyze verify "$TOP/data/trace-analyze-exporter.service"
	[[ "$output" != *"Unknown key"* && "$output" != *"Unknown section"* ]]
}
