/* Runs a fuzz target on given inputs, for builds without libFuzzer: every
 * file named, and every file in every folder named (a corpus). The suite
 * replays the seed corpora and the regression inputs this way; a crash or a
 * sanitizer report fails the run. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    size_t capacity = 4096, size = 0;
    uint8_t *data = malloc(capacity);
    for (size_t n; data && (n = fread(data + size, 1, capacity - size, file)) > 0;) {
        size += n;
        if (size == capacity) data = realloc(data, capacity *= 2);
    }
    fclose(file);
    if (!data) return 1;
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int failed = 0, inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            fprintf(stderr, "no input %s\n", argv[i]);
            failed++;
            continue;
        }
        if (!S_ISDIR(info.st_mode)) {
            failed += run_file(argv[i]);
            inputs++;
            continue;
        }
        DIR *folder = opendir(argv[i]);
        for (struct dirent *entry; folder && (entry = readdir(folder));) {
            if (entry->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], entry->d_name);
            if (stat(path, &info) != 0 || !S_ISREG(info.st_mode)) continue;
            failed += run_file(path);
            inputs++;
        }
        if (folder) closedir(folder);
    }
    printf("%d inputs run, %d could not be read\n", inputs, failed);
    return failed || !inputs;
}
