void f(void) {
  else {}
  case 3: ;
  default: ;
}
