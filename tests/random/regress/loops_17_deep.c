/* Known bug (docs/testing.md B2): 17 nested loops make gpufuse build an isl
 * string naming t1/s1 that it never declared; isl rejects it and gpufuse
 * aborts (compiler/deps.c:412 "internal error ... isl parse", SIGABRT).
 * 16 nested loops are fine.  Expected: fused, or a -Wgpufuse diagnostic
 * (the region keeps its CPU body).  Found by tests/random/bad_inputs.sh. */
#include <gpufuse.h>
GPUFUSE void f(int n, float x[n])
{
    for (int i0 = 0; i0 < 2; i0++)
      for (int i1 = 0; i1 < 2; i1++)
        for (int i2 = 0; i2 < 2; i2++)
          for (int i3 = 0; i3 < 2; i3++)
            for (int i4 = 0; i4 < 2; i4++)
              for (int i5 = 0; i5 < 2; i5++)
                for (int i6 = 0; i6 < 2; i6++)
                  for (int i7 = 0; i7 < 2; i7++)
                    for (int i8 = 0; i8 < 2; i8++)
                      for (int i9 = 0; i9 < 2; i9++)
                        for (int i10 = 0; i10 < 2; i10++)
                          for (int i11 = 0; i11 < 2; i11++)
                            for (int i12 = 0; i12 < 2; i12++)
                              for (int i13 = 0; i13 < 2; i13++)
                                for (int i14 = 0; i14 < 2; i14++)
                                  for (int i15 = 0; i15 < 2; i15++)
                                    for (int i16 = 0; i16 < 2; i16++)
                                      x[0] += 1.0f;
}
