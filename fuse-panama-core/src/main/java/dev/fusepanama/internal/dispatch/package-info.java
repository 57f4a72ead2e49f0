/**
 * What the path API ({@code internal.path}) and the inode API ({@code internal.inode}) share on
 * a request's way: {@code Operation} derives each API's operations from libfuse's struct of
 * callbacks and the API's Java signatures, and makes their guarded upcall stubs;
 * {@code ErrorMapper} turns what a method threw into an errno and a rate-limited log line;
 * {@code InitListener} is what a mount learns of init; {@code Workers} adopts libfuse's threads on
 * their first request; {@code ViewCheck} is the views' debug mode.
 */
package dev.fusepanama.internal.dispatch;
