/* peak.c: runs a command and reports its peak resident memory (bench/stream.py).
 *
 *   peak COMMAND [ARG...]
 *
 * Writes "peak_kb N" to standard error after the command's own output, and exits with its
 * status.  The command is forked from this small process, so that its peak is its own:
 * a process forked from a large one (a Python interpreter holding a 28 MB CRL) would
 * count its parent's pages, which a high-water mark keeps across exec.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct rusage usage;
    int status;
    pid_t child;
    if (argc < 2) {
        fprintf(stderr, "usage: %s COMMAND [ARG...]\n", argv[0]);
        return 2;
    }
    if ((child = fork()) == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    if (child < 0 || wait4(child, &status, 0, &usage) < 0) {
        perror("peak");
        return 2;
    }
    fprintf(stderr, "peak_kb %ld\n", usage.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
