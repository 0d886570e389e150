kernel void k(global int *p) {
  int i;
  for (i = 0 i < 3; i++) p[i] = i;
  p[0] = (1 + 2;
  p[1] = p[0]];
  switch (i) { case 1 p[0] = 1; default: ; }
  do p[0]++; while (0)
  if (i) } 
}
