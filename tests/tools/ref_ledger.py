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

lines = [("MemTotal", mem["MemTotal"]), ("free", mem["MemFree"]), ("anonymous", mem["AnonPages"]),
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
