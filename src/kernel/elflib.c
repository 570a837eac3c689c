/*
 * elflib.c - libelf, loaded when the first kernel object is read.
 *
 * Only the kernel tree's reader (ktree.c) needs libelf, and an account
 * without -k never does; linked, it is mapped at every start (lazylib.c).
 * The functions below have libelf's names and prototypes, which <libelf.h>
 * and <gelf.h> make the compiler check, and hand each call on.
 *
 * Not here: reading ELF (ktree.c). Every libelf function the program calls
 * must be in ELF_FUNCTIONS, or the link fails.
 */
#include <gelf.h>
#include <libelf.h>

#include "elflib.h"
#include "lazylib.h"

/* The library's name as libelf-dev links it (elfutils has kept .1). */
#define ELF_SONAME "libelf.so.1"

/* V(name, parameters, arguments); R(type, name, parameters, arguments) */
#define ELF_FUNCTIONS(V, R)							\
	R(Elf *, elf_begin, (int fd, Elf_Cmd cmd, Elf *ref), (fd, cmd, ref))	\
	R(int, elf_end, (Elf *elf), (elf))					\
	R(const char *, elf_errmsg, (int error), (error))			\
	R(Elf_Data *, elf_getdata, (Elf_Scn *scn, Elf_Data *data), (scn, data))	\
	R(int, elf_getshdrnum, (Elf *elf, size_t *dst), (elf, dst))		\
	R(Elf_Kind, elf_kind, (Elf *elf), (elf))				\
	R(size_t, elf_ndxscn, (Elf_Scn *scn), (scn))				\
	R(Elf_Scn *, elf_nextscn, (Elf *elf, Elf_Scn *scn), (elf, scn))	\
	R(char *, elf_strptr, (Elf *elf, size_t index, size_t offset), (elf, index, offset))	\
	R(unsigned int, elf_version, (unsigned int version), (version))	\
	R(GElf_Ehdr *, gelf_getehdr, (Elf *elf, GElf_Ehdr *dest), (elf, dest))	\
	R(GElf_Shdr *, gelf_getshdr, (Elf_Scn *scn, GElf_Shdr *dst), (scn, dst))	\
	R(GElf_Sym *, gelf_getsym, (Elf_Data *data, int ndx, GElf_Sym *dst), (data, ndx, dst))

#define LAZYLIB_TABLE elf_calls
#define LAZYLIB_LIBRARY elf_library
LAZYLIB_DEFINE(ELF_FUNCTIONS, .what = "libelf", .sonames = { ELF_SONAME })

int elf_library_load(struct ta_error *err)
{
	return lazylib_load(&elf_library, "to read kernel objects", err);
}
