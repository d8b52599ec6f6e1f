#include <gpufuse.h>

// A private array in a loop that runs on the host (the time loop carries
// the dependence on 'a'): the kernels it launches would have to share it.
GPUFUSE void steps(int n, int steps, const float c[steps], float a[n])
{
    for (int s = 0; s < steps; s++) {
        float w[2]; // expected-warning {{local array 'w' is declared in a loop that runs on the host (no parallel loop around it)}} [-Wgpufuse-temp]
        w[0] = c[s];
        w[1] = c[s] * 0.5f;
        for (int i = 0; i < n; i++)
            a[i] = a[i] * w[0] + w[1];
    }
}

// The same under an if around the kernels (a host if): the CUDA named an
// array no kernel declared.
GPUFUSE void steps_if(int n, int steps, const float c[steps], float a[n])
{
    for (int s = 0; s < steps; s++) {
        if (s > 0) {
            float w[2]; // expected-warning {{local array 'w' is declared in a loop that runs on the host (no parallel loop around it)}} [-Wgpufuse-temp]
            for (int k = 0; k < 2; k++)
                w[k] = c[s] * k;
            for (int i = 0; i < n; i++)
                a[i] = a[i] * w[0] + w[1];
        }
    }
}
