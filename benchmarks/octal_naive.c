/* Naive baseline for benchmarks/octal.py: G(0..N-1) of an octal code by the plain mex over
 * every option (O(N^2) for a code that splits heaps), with a fresh seen-array per heap.
 * Usage: octal_naive CODE N  (CODE as 0.d1d2..., digits 0-7). Prints N and G(N-1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    const char *tail = strchr(argv[1], '.');
    if (!tail) return 2;
    tail++;
    int t = (int)strlen(tail);
    long n_max = atol(argv[2]);
    unsigned *g = calloc((size_t)n_max + 1, sizeof(unsigned));
    unsigned char *seen = calloc(1 << 20, 1);
    if (!g || !seen) return 1;
    for (long n = 1; n < n_max; n++) {
        unsigned top = 0;
        for (int k = 1; k <= t && k <= n; k++) {
            int d = tail[k - 1] - '0';
            long rest = n - k;
            if ((d & 1) && rest == 0) seen[0] = 1;
            if ((d & 2) && rest > 0) { seen[g[rest]] = 1; if (g[rest] > top) top = g[rest]; }
            if (d & 4)
                for (long a = 1; 2 * a <= rest; a++) {
                    unsigned v = g[a] ^ g[rest - a];
                    seen[v] = 1;
                    if (v > top) top = v;
                }
        }
        unsigned mex = 0;
        while (seen[mex]) mex++;
        g[n] = mex;
        memset(seen, 0, top + 2);
    }
    printf("%ld %u\n", n_max, g[n_max - 1]);
    return 0;
}
