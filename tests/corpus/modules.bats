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
	[[ "$output" == *"warning: 43 call sites are bare addresses and no System.map was given"* ]]
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
