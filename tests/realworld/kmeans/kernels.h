#ifndef KMEANS_H
#define KMEANS_H
#define DIM 4
#define K 8
void assign(int n, const float pts[][DIM], const float cent[K][DIM], int label[]);
void accumulate(int n, const float pts[][DIM], const int label[], float sums[K][DIM], int counts[K]);
void update_centroids(const float sums[K][DIM], const int counts[K], float cent[K][DIM]);
double inertia(int n, const float pts[][DIM], const float cent[K][DIM], const int label[]);
#endif
