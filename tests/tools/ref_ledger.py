#!/usr/bin/env python3
"""ref_ledger.py DIR [PAGE_SIZE]: the ledger of a kernel snapshot folder
(meminfo, slabinfo, vmallocinfo, cgroup/.../memory.stat), summed here from
the files' fields with no code of trace_analyze's: "LINE BYTES" lines in the
order of --ledger's table, then "slab_bytes N", "vmalloc_page_bytes N" and
"not_charged_bytes N" (the kernel lines less the root cgroup's kernel); with
zoneinfo, "present_bytes N" and "reserved_bytes N" (present pages less
MemTotal); with buddyinfo, "buddy_bytes N" (every free block's pages); with
modules, "module_bytes N"; with allocinfo, "allocinfo_bytes N" and
"allocinfo_top SITE N" (its largest site)."""
import os
import sys

top = sys.argv[1]
page = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
mem = {}
for line in open(os.path.join(top, "meminfo")):
    name, rest = line.split(":", 1)
    f = rest.split()
    mem[name] = int(f[0]) * (1024 if len(f) > 1 and f[1] == "kB" else 1)

stack_callers = {"alloc_thread_stack_node", "dup_task_struct", "copy_process", "kernel_clone",
                 "fork_idle"}
stacks_vmalloced, vm_pages = False, 0
vmi = os.path.join(top, "vmallocinfo")
if os.path.exists(vmi):
    for line in open(vmi):
        w = line.split()
        caller = next((x.split("+")[0] for x in w[2:] if "+" in x), None)
        pages = next((int(x[6:]) for x in w if x.startswith("pages=")), 0)
        if "vmalloc" in w:
            vm_pages += pages
            if caller in stack_callers:
                stacks_vmalloced = True

# free pages on the CPUs' lists: zoneinfo's pagesets' "count:" lines, left out of MemFree
pcp = None
zi = os.path.join(top, "zoneinfo")
if os.path.exists(zi):
    counts = [int(l.split()[1]) for l in open(zi) if l.split()[:1] == ["count:"]]
    if counts:
        pcp = sum(counts) * page

lines = [("MemTotal", mem["MemTotal"]), ("free", mem["MemFree"])]
if pcp is not None:
    lines.append(("free on CPU lists", pcp))
lines += [("anonymous", mem["AnonPages"]),
         ("file cache", mem["Buffers"] + mem["Cached"] - mem["Shmem"]), ("shmem, tmpfs", mem["Shmem"]),
         ("swap cache", mem["SwapCached"])]
if "Hugetlb" in mem:
    lines.append(("huge pages", mem["Hugetlb"]))
lines += [("slab reclaimable", mem["SReclaimable"]), ("slab unreclaimable", mem["SUnreclaim"]),
          ("vmalloc", mem["VmallocUsed"] - (mem["KernelStack"] if stacks_vmalloced else 0)),
          ("percpu", mem["Percpu"]), ("kernel stacks", mem["KernelStack"]),
          ("page tables", mem["PageTables"] + mem.get("SecPageTables", 0))]
if mem.get("KReclaimable", 0) > mem["SReclaimable"]:
    lines.append(("other reclaimable", mem["KReclaimable"] - mem["SReclaimable"]))

# other pages: allocinfo's sites of whole pages (bytes a multiple of the page, a page or more
# per call), in no file of the allocators the lines above count, of no function vmallocinfo
# names as a vmalloc area's caller
counted = {"mm/slub.c", "mm/slab.c", "mm/slab_common.c", "mm/percpu.c", "mm/percpu-vm.c",
           "mm/percpu-km.c", "mm/vmalloc.c", "mm/shmem.c", "mm/filemap.c", "mm/readahead.c",
           "mm/memory.c", "mm/huge_memory.c", "mm/khugepaged.c", "mm/migrate.c",
           "mm/swap_state.c", "mm/mempolicy.c", "mm/ksm.c", "mm/hugetlb.c", "mm/userfaultfd.c",
           "include/asm-generic/pgalloc.h", "kernel/fork.c"}
vm_callers = set()
if os.path.exists(vmi):
    for line in open(vmi):
        w = line.split()
        if "vmalloc" in w:
            vm_callers.add(next((x.split("+")[0] for x in w[2:] if "+" in x), None))
ai = os.path.join(top, "allocinfo")
other_sites = {}
if os.path.exists(ai):
    for line in open(ai):
        w = line.split()
        if len(w) < 4 or not w[0].lstrip("-").isdigit():
            continue
        b, calls, path = int(w[0]), int(w[1]), w[2].rsplit(":", 1)[0]
        func = next(x[5:] for x in w if x.startswith("func:"))
        key = (w[2], func)
        other_sites[key] = other_sites.get(key, (0, 0, path, func))
        ob, oc, _, _ = other_sites[key]
        other_sites[key] = (ob + max(b, 0), oc + calls, path, func)
    other, other_top = 0, (0, "")
    for (site, _), (b, calls, path, func) in other_sites.items():
        if b <= 0 or b % page or b // page < calls:
            continue
        if path in counted or (path.startswith("arch/") and
                               (path.endswith("/mm/pgtable.c") or path.endswith("/pgalloc.h"))):
            continue
        if func in vm_callers:
            continue
        other += b
        other_top = max(other_top, (b, site))
    lines.append(("other pages", other))
lines.append(("unexplained", mem["MemTotal"] - sum(b for _, b in lines[1:])))
for name, b in lines:
    print("%s %d" % (name, b))

slab = 0
sli = os.path.join(top, "slabinfo")
if os.path.exists(sli):
    for line in open(sli).readlines()[2:]:
        f = line.split()
        slab += int(f[14]) * int(f[5]) * page	# num_slabs x pagesperslab
print("slab_bytes %d" % slab)
print("vmalloc_page_bytes %d" % (vm_pages * page))
root = os.path.join(top, "cgroup", "memory.stat")
if os.path.exists(root):
    stat = dict(l.split() for l in open(root))
    kernel = sum(b for name, b in lines if name in ("slab reclaimable", "slab unreclaimable",
                 "vmalloc", "percpu", "kernel stacks", "page tables", "other reclaimable"))
    print("not_charged_bytes %d" % (kernel - int(stat["kernel"])))

zi = os.path.join(top, "zoneinfo")
if os.path.exists(zi):
    present = sum(int(l.split()[1]) for l in open(zi) if l.split()[:1] == ["present"])
    print("present_bytes %d" % (present * page))
    print("reserved_bytes %d" % (present * page - mem["MemTotal"]))
bi = os.path.join(top, "buddyinfo")
if os.path.exists(bi):
    free = 0
    for l in open(bi):
        counts = l.split(",", 1)[1].split()[2:]
        free += sum(int(c) << order for order, c in enumerate(counts))
    print("buddy_bytes %d" % (free * page))
# what of the other pages another line may count too, at most: slab objects of a page or
# more (held to their slabs), meminfo's Slab less slabinfo's slabs, Percpu, vmalloc areas of callers no site is of
if os.path.exists(ai) and os.path.exists(sli) and os.path.exists(vmi):
    bound = 0
    for line in open(sli).readlines()[2:]:
        f = line.split()
        if int(f[3]) >= page:			# objects of a page or more
            bound += min(int(f[1]) * int(f[3]), int(f[14]) * int(f[5]) * page)
    bound += max(mem["SReclaimable"] + mem["SUnreclaim"] - slab, 0) + mem["Percpu"]
    funcs = {func for _, _, _, func in other_sites.values()}
    for line in open(vmi):
        w = line.split()
        caller = next((x.split("+")[0] for x in w[2:] if "+" in x), None)
        if "vmalloc" in w and caller not in stack_callers and caller not in funcs:
            bound += next((int(x[6:]) for x in w if x.startswith("pages=")), 0) * page
    print("overlap_bytes %d" % bound)
    print("other_top %s %d" % (other_top[1], other_top[0]))
mo = os.path.join(top, "modules")
if os.path.exists(mo):
    print("module_bytes %d" % sum(int(l.split()[1]) for l in open(mo)))
ai = os.path.join(top, "allocinfo")
if os.path.exists(ai):
    sites = {}
    for l in open(ai):
        if l.startswith("allocinfo") or l.startswith("#"):
            continue
        f = l.split()
        key = f[2] + " " + f[-1] if f[-1].startswith("func:") else f[2]
        sites[key] = sites.get(key, 0) + int(f[0])
    print("allocinfo_bytes %d" % sum(sites.values()))
    top_key = max(sites, key=lambda k: sites[k])
    print("allocinfo_top %s %d" % (top_key.split()[0], sites[top_key]))
