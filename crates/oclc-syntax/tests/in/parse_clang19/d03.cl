int;
const;
static const;
kernel;
int *p, ;
int (*)(int);
