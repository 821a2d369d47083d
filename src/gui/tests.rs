//! kittest tests of the windows.
