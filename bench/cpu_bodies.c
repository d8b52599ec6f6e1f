/* cpu_bodies.c - the workloads' C bodies, linked into bench_gpufuse under
 * cpu_* names so that the only definitions of the marked names are
 * gpufuse's strong launchers (see driver.cu). */
#define chain cpu_chain
#define dot cpu_dot
#define softmax cpu_softmax
#define layernorm cpu_layernorm
#define vsqrt cpu_vsqrt
#define jacobi cpu_jacobi
#define blackscholes cpu_blackscholes
#include "workloads/chain.c"
#include "workloads/dot.c"
#include "workloads/softmax.c"
#include "workloads/layernorm.c"
#include "workloads/sqrt.c"
#include "workloads/jacobi.c"
#include "workloads/blackscholes.c"
