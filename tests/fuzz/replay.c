/* Replays a fuzz target's regression corpus: every file given on the
 * command line, or, with no arguments, every file in
 * $top_srcdir/tests/fuzz/corpus/FUZZ_TARGET/.  Prints TAP with a single
 * test, the whole replay, so that a target counts once however large its
 * corpus grows; a failing input aborts the program, which the TAP driver
 * reports as an error, after the name of the input on stderr.  An empty
 * corpus is a failure: it would prove nothing.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "util.h"

static int
compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static uint8_t *
read_file(const char *name, size_t *sizep)
{
    FILE *file = fopen(name, "rb");
    uint8_t *data = NULL;
    size_t size = 0, allocated = 0;

    if (!file) {
        util_fatal(errno, "%s: cannot open", name);
    }
    for (;;) {
        if (size == allocated) {
            allocated = allocated ? allocated * 2 : 4096;
            data = xrealloc(data, allocated);
        }

        size_t n = fread(data + size, 1, allocated - size, file);
        if (!n) {
            break;
        }
        size += n;
    }
    fclose(file);
    *sizep = size;
    return data;
}

int
main(int argc, char *argv[])
{
    char **files = NULL;
    size_t n_files = 0;

    util_set_program_name(argv[0]);
    if (argc > 1) {
        files = xmemdup(argv + 1, (argc - 1) * sizeof *argv);
        for (int i = 1; i < argc; i++) {
            files[i - 1] = xstrdup(argv[i]);
        }
        n_files = argc - 1;
    } else {
        const char *top = getenv("top_srcdir");
        char *dir_name = xasprintf("%s/tests/fuzz/corpus/%s",
                                   top ? top : ".", FUZZ_TARGET);
        DIR *dir = opendir(dir_name);
        struct dirent *de;

        if (!dir) {
            util_fatal(errno, "%s: cannot open corpus", dir_name);
        }
        while ((de = readdir(dir)) != NULL) {
            if (de->d_name[0] != '.') {
                files = xrealloc(files, (n_files + 1) * sizeof *files);
                files[n_files++] = xasprintf("%s/%s", dir_name, de->d_name);
            }
        }
        closedir(dir);
        free(dir_name);
        qsort(files, n_files, sizeof *files, compare_names);
    }

    if (LLVMFuzzerInitialize) {
        LLVMFuzzerInitialize(&argc, &argv);
    }
    printf("1..1\n");
    fflush(stdout);
    for (size_t i = 0; i < n_files; i++) {
        size_t size;
        uint8_t *data;

        /* Named before it runs, so that a crash says which input. */
        fprintf(stderr, "%s\n", util_base_name(files[i]));
        data = read_file(files[i], &size);
        LLVMFuzzerTestOneInput(data, size);
        free(data);
        free(files[i]);
    }
    free(files);
    if (!n_files) {
        printf("not ok 1 - %s corpus: no inputs\n", FUZZ_TARGET);
        return 1;
    }
    printf("ok 1 - %s corpus: %zu inputs replayed\n", FUZZ_TARGET, n_files);
    return 0;
}
