// A plain indirect store (scatter) may collide too, and a store has no atomic form.
#include <gpufuse.h>

GPUFUSE void scatter(int n, const int *restrict idx, const float *restrict v, float out[1024])
{
    for (int i = 0; i < n; i++) // expected-warning {{writes to 'out' use a subscript that is not affine in the loop indices (indirect like 'out[idx[i]]', or flattened with a variable row length like 'out[i*m + j]'), so different iterations may write the same element (only '+=', '-=', '*=', '&=', '|=', '^=' updates and min/max updates like 'out[k] = fmaxf(out[k], v)' can be atomic); 'scatter' keeps its CPU body}} [-Wgpufuse-dependence]
        out[idx[i]] = v[i];
}
