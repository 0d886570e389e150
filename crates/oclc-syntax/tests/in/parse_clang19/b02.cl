void f(int a) {
  while a) {}
  while (a {}
  switch a {}
  for a;;) {}
}
