/* Replays a fuzz target's regression corpus: every file given on the
 * command line, or, with no arguments, every file in
 * $top_srcdir/tests/fuzz/corpus/FUZZ_TARGET/.  Prints TAP, one line per
 * file; a failing input aborts the program, which the TAP driver reports.
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

    LLVMFuzzerInitialize(&argc, &argv);
    printf("1..%zu\n", n_files);
    fflush(stdout);
    for (size_t i = 0; i < n_files; i++) {
        size_t size;
        uint8_t *data = read_file(files[i], &size);

        LLVMFuzzerTestOneInput(data, size);
        printf("ok %zu - %s\n", i + 1, util_base_name(files[i]));
        fflush(stdout);
        free(data);
        free(files[i]);
    }
    free(files);
    return 0;
}
