/*
 * run_seeds.c - runs files through LLVMFuzzerTestOneInput once each, for
 * machines whose compiler has no libFuzzer: the regression half of the
 * fuzz target, built with gcc and the sanitizers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long n;

		if (!f || fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0) {
			perror(argv[i]);
			return 1;
		}
		rewind(f);
		buf = malloc((size_t)n + 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
	}
	printf("%d inputs run\n", argc - 1);
	return 0;
}
