#!/usr/bin/env bats
# Loadable modules on a real 6.12 kernel (linux-6.12-modules: ext4, jbd2,
# mbcache, loop... as modules): --group-by module, --module, and a log read
# after rmmod, its bare addresses named by a kallsyms saved while they
# were loaded.

load ../lib/helpers

setup() {
	require_corpus
	MODS="$CORPUS/linux-6.12-modules"
	[ -f "$MODS/workload-kmem-B.log.xz" ] || skip "no linux-6.12-modules corpus"
	cd "$BATS_TEST_TMPDIR"
}

# allocations by the module the log prints after the call site ("[ext4]"), vmlinux without
allocations_by_suffix() {
	xzcat "$1" | grep -E ': (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): ' |
		grep -v 'ptr=0000000000000000 \|ptr=(null)' |
		sed -E 's/.*call_site=[^ ]+( \[([a-z0-9_]+)\])?.*/\2/; s/^$/vmlinux/' | sort | uniq -c |
		awk '{ print $2, $1 }' | sort
}

@test "--group-by module: allocations per module equal a count of the log's [module] suffixes" {
	allocations_by_suffix "$MODS/workload-kmem-B.log.xz" > want
	"$TA" -q -f "$MODS/workload-kmem-B.log.xz" -c got.json --group-by module --format json
	jq -r '.callers[] | "\(.key) \(.alloc_count)"' got.json | sort > got
	diff -u want got
	grep -q '^ext4 ' got && grep -q '^jbd2 ' got && grep -q '^vmlinux ' got
	[ "$(jq -r '.callers[0].group_by' got.json)" = module ]
	# --module keeps those modules' allocations, no other
	"$TA" -q -f "$MODS/workload-kmem-B.log.xz" -c ext.json --module ext4,jbd2 --format json
	[ "$(jq '.totals.allocs' ext.json)" = "$(awk '$1 == "ext4" || $1 == "jbd2" { n += $2 } END { print n }' want)" ]
	[ "$(jq -r '[.callers[].key | select(endswith("[ext4]") or endswith("[jbd2]") | not)] | length' ext.json)" = 0 ]
}

@test "a log read after rmmod: bare addresses, named by a kallsyms saved while the modules were loaded" {
	# the same buffer read after the modules were unloaded prints their call sites as addresses
	[ "$(xzcat "$MODS/workload-kmem.log.xz" | grep -c 'call_site=0xffffffffa0')" -gt 60000 ]
	"$TA" -q -f "$MODS/workload-kmem.log.xz" -c u.json --group-by module --format json
	[ "$(jq -r '[.callers[] | select(.key == "(unresolved)")] | length' u.json)" = 1 ]
	run "$TA" -f "$MODS/workload-kmem.log.xz" -c /dev/null
	[[ "$output" == *"warning: 43 call sites are bare addresses and no symbols were given (-k DIR, --system-map FILE, or --kallsyms FILE with --modules FILE)"* ]]
	# with kallsyms-B, ext4's and jbd2's allocations are the B log's (read while loaded)
	"$TA" -q -f "$MODS/workload-kmem.log.xz" --kallsyms "$MODS/kallsyms-B.txt.xz" -c k.json \
		--group-by module --format json
	"$TA" -q -f "$MODS/workload-kmem-B.log.xz" -c b.json --group-by module --format json
	for m in ext4 jbd2; do
		[ "$(jq ".callers[] | select(.key == \"$m\") | .alloc_count" k.json)" = \
		  "$(jq ".callers[] | select(.key == \"$m\") | .alloc_count" b.json)" ]
	done
	[ "$(jq -r '[.callers[] | select(.key == "(unresolved)")] | length' k.json)" = 0 ]
	# and the call sites are named as %pS names them, the module after
	"$TA" -q -f "$MODS/workload-kmem.log.xz" --kallsyms "$MODS/kallsyms-B.txt.xz" -c - |
		grep -q '  ext4_alloc_inode+0x34 \[ext4\]$'
}

@test "-k on a tree with modules: their objects (from each .ko's .mod list) are not vmlinux's; an index keeps them" {
	TREE="$MODS/tree"
	# independent: the objects each NAME.mod lists beside NAME.ko, their sized symbols by readelf
	python3 - "$TREE" > want <<'PY'
import os, subprocess, sys
os.chdir(sys.argv[1])
objs = set()
for root, dirs, files in os.walk('.'):
    for f in files:
        if f.endswith('.mod') and os.path.exists(os.path.join(root, f[:-4] + '.ko')):
            for line in open(os.path.join(root, f)):
                p = line.strip()
                if p and os.path.exists(p) and any(os.path.exists(p[:-2] + s) for s in ('.c', '.S')):
                    objs.add(p)
total = 0
for o in objs:
    sized = {}
    for line in subprocess.run(['readelf', '-sW', o], capture_output=True, text=True).stdout.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(':') or f[3] not in ('FUNC', 'OBJECT', 'TLS') or f[6] in ('UND', 'ABS'):
            continue
        size = int(f[2], 0)
        if size:
            sized[(f[6], f[1])] = max(sized.get((f[6], f[1]), 0), size)
    total += sum(sized.values())
print(len(objs), total)
PY
	run "$TA" -k "$TREE" -c static.txt
	[ "$status" -eq 0 ]
	read -r objects bytes < want
	[[ "$output" == *"  modules:           13 built as .ko (their .mod lists): $objects objects, $bytes bytes of sized symbols, not in vmlinux"* ]]
	# the built-in part and the modules' add up to the static table's total
	builtin=$(sed -n 's/^  static footprint:  \([0-9]*\) bytes of sized symbols in the built-in objects.*/\1/p' <<< "$output")
	[ "$((builtin + bytes))" = "$(awk '/^static bytes:/ { print $3 }' static.txt)" ]
	# an index of the tree says the same
	"$TA" -q -k "$TREE" --save-index tree.kidx
	run "$TA" -k tree.kidx -c static2.txt
	[[ "$output" == *"  modules:           13 built as .ko (their .mod lists): $objects objects, $bytes bytes"* ]]
}

@test "a module's symbols name only addresses inside that module: freed init text stays (unresolved), as an independent naming says" {
	# the stack phase loaded the modules in another cycle: its module addresses
	# (ext4's freed init text among them) lie past the code kallsyms-B places there
	xzcat "$MODS/kallsyms-B.txt.xz" > kallsyms-B
	LOG="$MODS/stacktrace-kmem.log"
	python3 "$TOP/tests/tools/ref_module_names.py" "$LOG" kallsyms-B "$MODS/modules-B.txt" > ref
	awk '$2 == "(unresolved)" { print $1 }' ref | sort > want
	[ "$(wc -l < want)" -gt 30 ]
	run "$TA" -q -f "$LOG" --kallsyms kallsyms-B --modules "$MODS/modules-B.txt" --folded folded \
		-c acc.json --group-by module --format json
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 of 1 call site addresses are in no function of 'kallsyms-B' (all past the end of a module's code: freed init text, or another load cycle): they stay hex as (unresolved)"* ]]
	sed 's/ [0-9]*$//' folded | tr ';' '\n' | grep -o '^0x[0-9a-f]*$' | sort -u > got
	diff -u want got
	# the one allocation at such an address was dummy_cleanup_module+0x23b7 [dummy] before
	[ "$(jq '[.callers[] | select(.key == "(unresolved)") | .alloc_count] | add' acc.json)" = \
	  "$(python3 "$TOP/tests/tools/ref_module_names.py" "$LOG" kallsyms-B "$MODS/modules-B.txt" --allocs | awk '$1 == "(unresolved)" { print $2 }')" ]
	[ "$(jq '[.callers[] | select(.key == "dummy")] | length' acc.json)" = 0 ]
	# without --modules, each module is bounded by its symbols (perf's rule): the same here
	"$TA" -q -f "$LOG" --kallsyms kallsyms-B --folded folded2 2>/dev/null
	python3 "$TOP/tests/tools/ref_module_names.py" "$LOG" kallsyms-B | awk '$2 == "(unresolved)" { print $1 }' | sort > want2
	sed 's/ [0-9]*$//' folded2 | tr ';' '\n' | grep -o '^0x[0-9a-f]*$' | sort -u > got2
	diff -u want2 got2
	# the log of the same load cycle keeps every name: all 104 addresses inside their module
	python3 "$TOP/tests/tools/ref_module_names.py" "$MODS/workload-kmem.log.xz" kallsyms-B "$MODS/modules-B.txt" > ref3
	[ "$(grep -c '(unresolved)' ref3)" = 0 ]
	run "$TA" -q -f "$MODS/workload-kmem.log.xz" --kallsyms kallsyms-B --modules "$MODS/modules-B.txt" -c - --group-by module
	[[ "$output" != *unresolved* ]]
}

@test "--modules: a file that is no /proc/modules, or read without root, is refused by name" {
	printf 'ext4 692224 1 - Live 0x0000000000000000\n' > zeros
	xzcat "$MODS/kallsyms-B.txt.xz" > kallsyms-B
	run "$TA" -f "$MODS/workload-kmem.log.xz" --kallsyms kallsyms-B --modules zeros -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'zeros' gives every module the address 0: it was read without root (kptr_restrict); save /proc/modules as root" ]
	run "$TA" -f "$MODS/workload-kmem.log.xz" --kallsyms kallsyms-B --modules kallsyms-B -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: kallsyms-B:1: not a /proc/modules line ('name size refs deps state 0xaddress')" ]
	# alone it bounds nothing: a usage error, not a silent no-op
	run "$TA" -f "$MODS/workload-kmem.log.xz" --modules "$MODS/modules-B.txt" -c /dev/null
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --modules says where the modules of a saved kallsyms lay: give that kallsyms too (--kallsyms FILE), or a trace.dat, whose kallsyms are inside it" ]
}
