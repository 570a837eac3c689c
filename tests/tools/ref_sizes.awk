# ref_sizes.awk LOG: an independent count of --sizes from a tracefs text log:
# every slab allocation (kmalloc, kmem_cache_alloc and their _node forms)
# with a pointer (a failed one has none), by the power-of-two range of its
# bytes_req: "RANGE ALLOCS BYTES_REQ BYTES_ALLOC", smallest first.
/ (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): / {
	ptr = ""; req = -1; got = 0
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^ptr=/) ptr = substr($i, 5)
		else if ($i ~ /^bytes_req=/) req = substr($i, 11) + 0
		else if ($i ~ /^bytes_alloc=/) got = substr($i, 13) + 0
	}
	if (req < 0 || ptr == "" || ptr ~ /^(0+|\(null\))$/) next
	if (req == 0) { lo = 0; hi = 0 } else {
		hi = 1; while (hi < req) hi *= 2
		lo = hi == 1 ? 1 : hi / 2 + 1
	}
	key = lo == hi ? lo "" : lo "-" hi
	n[key]++; r[key] += req; a[key] += got; order[key] = hi
}
END {
	for (k in n) printf "%d %s %d %d %d\n", order[k], k, n[k], r[k], a[k] | "sort -n | cut -d' ' -f2-"
}
