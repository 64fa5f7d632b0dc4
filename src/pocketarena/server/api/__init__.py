"""HTTP and WebSocket routes (thin handlers) and their dependencies."""
