# stacks_to_handles.awk - page_owner's show_stacks files as 6.19's show_handles
# and show_stacks_handles would give them: each distinct stack a handle
# (the same stack the same handle across the files), each file's counts
# per handle into FILE.handles, the stacks and their handles into MAP.
# A stand-in for a 6.19 kernel's files, made from a real 6.12 guest's.
# usage: awk -v map=MAP -f stacks_to_handles.awk STACKS...
FNR == 1 { out = FILENAME ".handles"; printf "" > out }
/^ / { frames = frames $0 "\n"; next }
/^nr_base_pages: / {
	if (!(frames in handle)) {
		handle[frames] = 4096 + 40 * ++n
		order[n] = frames
	}
	printf "handle: %d\n%s\n\n", handle[frames], $0 > out
	frames = ""
	next
}
END {
	printf "" > map
	for (i = 1; i <= n; i++)
		printf "%shandle: %d\n\n", order[i], handle[order[i]] > map
}
