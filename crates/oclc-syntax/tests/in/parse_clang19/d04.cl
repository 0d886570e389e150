void f() {}
void g()
{
}
void h(void);;
void i(void) {};
