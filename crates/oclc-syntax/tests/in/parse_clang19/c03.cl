kernel void k(global int *p) {
  int i = 0;
  p[i] = i++ + ++i;
  label: ;
  goto label;
  { int j; }
  ;;
  switch (i) case 1: break;
}
