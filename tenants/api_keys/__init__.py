"""Tenants' API keys: durable credentials a tenant creates, lists and revokes itself."""
