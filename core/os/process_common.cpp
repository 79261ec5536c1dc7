// placeholder: implemented in the OS-layer work
