kernel void k(void) {
  int i;
  for (int j = 0; j < 3; j++
    i = j;
  do { } while (i;
  if (i) { } else
}
